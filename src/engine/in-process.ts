/**
 * Runs without Redis: the same job handlers, retries and backoff as the queue, in this process.
 * For the demo and single-process rehearsals only; nothing survives a restart, so production
 * uses BullMQ.
 */
import { withDeadline } from '../core/deadline.js';
import { asAppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Clock } from '../ports/clock.js';
import { preflightJobPolicy as preflightRunbook } from '../runbooks/preflight.js';
type RunbookPolicy = { attempts: number; backoffMs: number };
import {
  preflightJobData,
  type JobContext,
  type PreflightRequest,
  type RunEnd,
  type Runs,
} from './jobs.js';
import type { JobHandlers } from './worker.js';

export class InProcessRuns implements Runs {
  private readonly runs = new Map<string, Promise<RunEnd>>();
  private closed = false;

  constructor(
    private readonly handlers: JobHandlers,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private start<T>(
    runId: string,
    data: T,
    policy: RunbookPolicy,
    handler: (job: JobContext<T>) => Promise<unknown>,
  ): void {
    let current = data;
    const run = async (): Promise<RunEnd> => {
      for (let attempt = 1; attempt <= policy.attempts; attempt += 1) {
        try {
          await handler({
            data: current,
            attempt,
            maxAttempts: policy.attempts,
            save: (next) => {
              current = next;
              return Promise.resolve();
            },
          });
          return 'completed';
        } catch (error) {
          const appError = asAppError(error);
          this.logger.warn(
            { runId, attempt, code: appError.code, err: appError },
            'in-process run attempt failed',
          );
          if (!appError.retryable || attempt === policy.attempts || this.closed) return 'failed';
          await new Promise((resolve) =>
            setTimeout(resolve, policy.backoffMs * 2 ** (attempt - 1)),
          );
        }
      }
      return 'failed';
    };
    this.runs.set(runId, run());
  }

  enqueuePreflight(request: PreflightRequest): Promise<string> {
    const data = preflightJobData(request, this.clock.now());
    this.start(data.runId, data, preflightRunbook, this.handlers.preflight);
    return Promise.resolve(data.runId);
  }

  async waitFor(runId: string, timeoutMs: number): Promise<RunEnd> {
    const run = this.runs.get(runId);
    if (run === undefined) throw new Error(`no run ${runId} in this process`);
    return withDeadline(
      run,
      timeoutMs,
      () => new Error(`run ${runId} did not finish within ${timeoutMs} ms`),
    );
  }

  /** Stops retrying and waits for running attempts, up to `graceMs`. */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    await withDeadline(
      Promise.all(this.runs.values()),
      graceMs,
      () => new Error('grace period over'),
    ).catch(() => this.logger.warn({ graceMs }, 'in-process runs still active at the deadline'));
  }
}
