/**
 * RunClaims: one run per identical request. A request (its kind, cluster, node, channel, options
 * and the cluster's configuration, hashed into a key by core/run-key.ts) claims its key for the
 * run it is about to start; while that run has not ended, the same request is told about it
 * instead of starting another. The claim lives as long as the run: it lapses when the run ends,
 * whatever happens to the process that made it.
 */
export interface RunClaims {
  /**
   * Claims `key` for `runId` unless a run that has not ended holds it (or one is being created
   * for it right now); resolves to that run's id, or undefined when the claim is `runId`'s.
   */
  claim(key: string, runId: string): Promise<string | undefined>;
  /** Gives the claim up (the run could not be created). */
  release(key: string, runId: string): Promise<void>;
}

/** How long a claim waits for its run to be created before another request may take it over. */
export const CLAIM_CREATE_GRACE_MS = 60_000;
