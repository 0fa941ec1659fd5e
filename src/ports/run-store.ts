/**
 * RunStore: where run states live between steps and across crashes. Saves are compare-and-set
 * on the version: a writer holding an older state loses with {@link StaleRunError} and must
 * reload, so two processes can never both move a run on from the same state.
 */
import type { RunState } from '../core/run-state.js';

export interface RunQuery {
  cluster?: string;
  node?: string;
  /** Only runs that have not ended (running, awaiting approval, rolling back). */
  active?: boolean;
  /** Newest first; at most this many (default 50). */
  limit?: number;
}

export interface RunStore {
  /** What the store is, for people: "Redis at redis://…", "files in ~/.proxy-migrate/runs". */
  readonly description: string;
  /** Stores a new run (version 1); fails if the id exists. */
  create(state: RunState): Promise<RunState>;
  get(id: string): Promise<RunState | undefined>;
  /** Stores `state` if the stored version is `state.version`; resolves to it with version + 1. */
  save(state: RunState): Promise<RunState>;
  list(query?: RunQuery): Promise<RunState[]>;
  /**
   * Marks the run as being worked on by `owner` (`host:pid`) for `ttlMs`; a process executing a
   * step beats every third of that. Resumers skip runs whose owner is alive.
   */
  beat(id: string, owner: string, ttlMs: number): Promise<void>;
  /** The live owner of the run, or undefined when nobody has beaten within the TTL. */
  owner(id: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Another writer saved the run first; reload and decide again. */
export class StaleRunError extends Error {
  constructor(
    readonly runId: string,
    readonly expected: number,
    readonly found: number | undefined,
  ) {
    super(
      `run ${runId} was saved by another writer (version ${found ?? 'missing'}, expected ${expected})`,
    );
    this.name = 'StaleRunError';
  }
}
