/**
 * What callers (slash commands, the terminal, the demo) see of the engine: start a run, signal
 * it, read it, wait for its end. Run ids are made here, so callers never invent them.
 */
import type { RunEvent } from '../core/run-events.js';
import type { Actor, RunOptions, RunState } from '../core/run-state.js';
import type { RunKind } from '../core/runbook.js';
import { AppError } from '../errors.js';
import type { RunClaims } from '../ports/run-claims.js';
import type { RunStore } from '../ports/run-store.js';
import type { RunEngine, SignalResult } from './run-engine.js';
import { newRunId } from './run-id.js';

const idPrefix: Record<RunKind, string> = {
  preflight: 'pf',
  cutover: 'co',
  rollback: 'rb',
  repair: 'rp',
};

export interface RunRequest {
  kind: RunKind;
  cluster: string;
  node?: string;
  requester: Actor;
  options: RunOptions;
  /** Facts the first steps read (pre-flight: suppressed checks, whether to probe). */
  facts?: Record<string, unknown>;
}

/** What {@link Runs.startOnce} did: started `runId`, or found it running for the same request. */
export interface StartOnce {
  runId: string;
  started: boolean;
}

function queueUnavailable(error: unknown): unknown {
  if (error instanceof AppError && error.code === 'RUN_STORE_UNAVAILABLE') {
    return new AppError(
      'QUEUE_UNAVAILABLE',
      'The job queue is not reachable, so nothing was started.',
      {
        remedy:
          'Try again in a minute; if it persists, check Redis (REDIS_URL) and the bot’s /readyz.',
        retryable: true,
        cause: error,
      },
    );
  }
  return error;
}

export class Runs {
  /** In-process only: resolves when no step is due or running. */
  readonly idle?: () => Promise<void>;
  private readonly claims?: RunClaims;

  constructor(
    private readonly engine: RunEngine,
    readonly store: RunStore,
    extras: { idle?: () => Promise<void>; claims?: RunClaims } = {},
  ) {
    if (extras.idle !== undefined) this.idle = extras.idle;
    if (extras.claims !== undefined) this.claims = extras.claims;
  }

  /** Creates the run and asks for its first step; resolves to the run id. */
  async start(request: RunRequest): Promise<string> {
    const id = newRunId(idPrefix[request.kind], new Date());
    try {
      const state = await this.engine.start({ ...request, id });
      return state.id;
    } catch (error) {
      throw queueUnavailable(error);
    }
  }

  /**
   * Starts the run unless one started for the same request (`key`, core/run-key.ts) has not
   * ended; then resolves to that one. Without claims (the terminal) every call starts a run.
   */
  async startOnce(request: RunRequest, key: string): Promise<StartOnce> {
    const claims = this.claims;
    if (claims === undefined) return { runId: await this.start(request), started: true };
    const id = newRunId(idPrefix[request.kind], new Date());
    let held: string | undefined;
    try {
      held = await claims.claim(key, id);
    } catch (error) {
      throw queueUnavailable(error);
    }
    if (held !== undefined) return { runId: held, started: false };
    try {
      await this.engine.start({ ...request, id });
    } catch (error) {
      // The next identical request may start at once instead of waiting out the claim's grace.
      await claims.release(key, id).catch(() => undefined);
      throw queueUnavailable(error);
    }
    return { runId: id, started: true };
  }

  signal(runId: string, event: RunEvent): Promise<SignalResult> {
    return this.engine.signal(runId, event);
  }

  /** Keeps `value` under `key` on the run unless it has one; exactly one racing caller wins. */
  claim(
    runId: string,
    key: string,
    value: unknown,
  ): Promise<{ won: boolean; value: unknown; state: RunState }> {
    return this.engine.claim(runId, key, value);
  }

  /** Keeps small facts on the run (message ts), in any phase. */
  async record(runId: string, facts: Record<string, unknown>): Promise<void> {
    await this.engine.signal(runId, { type: 'recorded', at: new Date().toISOString(), facts });
  }

  get(runId: string): Promise<RunState | undefined> {
    return this.store.get(runId);
  }

  /** Resolves to the ended run; rejects at the deadline. */
  async waitFor(runId: string, timeoutMs: number): Promise<RunState> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = await this.store.get(runId);
      if (state?.phase === 'done') return state;
      if (Date.now() > deadline) throw new Error(`run ${runId} did not end within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
