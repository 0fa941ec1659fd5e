/**
 * The producer side of the runs queue: what slash commands call after `ack()`. Job ids are run
 * ids, so adding the same run twice is a no-op.
 */
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { withDeadline } from '../core/deadline.js';
import { AppError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import { preflightJobPolicy as preflightRunbook } from '../runbooks/preflight.js';
type RunbookPolicy = { attempts: number; backoffMs: number };
import {
  RUNS_QUEUE,
  preflightJobData,
  type PreflightRequest,
  type RunEnd,
  type Runs,
} from './jobs.js';

const DAY_SECONDS = 24 * 60 * 60;

/** Retries follow the runbook; retention keeps history for `status` and audits. */
export function jobOptions(runbook: RunbookPolicy): JobsOptions {
  return {
    attempts: runbook.attempts,
    backoff: { type: 'exponential', delay: runbook.backoffMs },
    removeOnComplete: { age: 7 * DAY_SECONDS, count: 1_000 },
    removeOnFail: { age: 30 * DAY_SECONDS },
  };
}

const ENQUEUE_DEADLINE_MS = 2_000;

export class RunQueue implements Runs {
  readonly queue: Queue;
  private readonly clock: Clock;

  constructor(connection: Redis, prefix: string, clock: Clock, onError: (error: Error) => void) {
    this.queue = new Queue(RUNS_QUEUE, { connection, prefix });
    // Connection errors are reported by the connection's own handler and by /readyz.
    this.queue.on('error', onError);
    this.clock = clock;
  }

  /** Queues a pre-flight and resolves to its run id. */
  async enqueuePreflight(request: PreflightRequest): Promise<string> {
    const data = preflightJobData(request, this.clock.now());
    await this.add('preflight', data, data.runId, preflightRunbook);
    return data.runId;
  }

  async waitFor(runId: string, timeoutMs: number): Promise<RunEnd> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.queue.getJob(runId);
      const state = await job?.getState();
      if (state === 'completed' || state === 'failed') return state;
      if (Date.now() > deadline)
        throw new Error(`run ${runId} did not finish within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async add(
    name: string,
    data: unknown,
    jobId: string,
    runbook: RunbookPolicy,
  ): Promise<void> {
    const unavailable = (cause?: unknown): AppError =>
      new AppError('QUEUE_UNAVAILABLE', 'The job queue is not reachable, so nothing was started.', {
        remedy:
          'Try again in a minute; if it persists, check Redis (REDIS_URL) and the bot’s /readyz.',
        retryable: true,
        cause,
      });
    try {
      await withDeadline(
        this.queue.add(name, data, { ...jobOptions(runbook), jobId }),
        ENQUEUE_DEADLINE_MS,
        () => unavailable(),
      );
    } catch (error) {
      // A slow add may still land after the deadline: if the job exists, it was started, and
      // telling the user "nothing was started" would invite a duplicate run.
      const landed = await withDeadline(this.queue.getJob(jobId), ENQUEUE_DEADLINE_MS, () =>
        unavailable(),
      ).catch(() => undefined);
      if (landed !== undefined) return;
      throw error instanceof AppError ? error : unavailable(error);
    }
  }

  async metrics(): Promise<string> {
    return this.queue.exportPrometheusMetrics();
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
