/**
 * One request gate per cluster, shared by everything in the process that talks to that cluster
 * (the reads, the writes, the probe pods' execs; the bot's jobs and a terminal run alike): a
 * client-side token bucket, so a pre-flight of 200 nodes cannot flood the API server the
 * migration depends on, plus counters of what the gate and the retries did, for logs and suites.
 */
import {
  DEFAULT_API_RATE_LIMIT,
  fullBucket,
  reserve,
  type Bucket,
  type RateLimit,
} from '../../core/token-bucket.js';

export { DEFAULT_API_RATE_LIMIT } from '../../core/token-bucket.js';

export type RetryReason = 'throttled' | 'server-error' | 'timeout' | 'connection' | 'conflict';

export interface GateStats {
  /** Requests that passed the gate (every attempt, retries included). */
  requests: number;
  /** Of those, the ones that waited for a token, and the total wait. */
  delayed: number;
  delayedMs: number;
  /** Attempts repeated, by why. */
  retries: Record<RetryReason, number>;
}

const NO_RETRIES: Record<RetryReason, number> = {
  throttled: 0,
  'server-error': 0,
  timeout: 0,
  connection: 0,
  conflict: 0,
};

export class ClusterGate {
  private bucket: Bucket;
  private counts: GateStats = { requests: 0, delayed: 0, delayedMs: 0, retries: { ...NO_RETRIES } };

  constructor(
    readonly cluster: string,
    private limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.bucket = fullBucket(limit, now());
  }

  get rateLimit(): RateLimit {
    return this.limit;
  }

  /** A clusters file read again (the bot reloads it) may change the limit; the bucket stays. */
  setLimit(limit: RateLimit): void {
    this.limit = limit;
  }

  /** Waits for a token. The wait is bounded: burst and QPS fix how long the queue can be. */
  async take(): Promise<void> {
    const { waitMs, bucket } = reserve(this.bucket, this.limit, this.now());
    this.bucket = bucket;
    this.counts.requests += 1;
    if (waitMs <= 0) return;
    this.counts.delayed += 1;
    this.counts.delayedMs += waitMs;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }

  retried(reason: RetryReason): void {
    this.counts.retries[reason] += 1;
  }

  stats(): GateStats {
    return { ...this.counts, retries: { ...this.counts.retries } };
  }

  resetStats(): void {
    this.counts = { requests: 0, delayed: 0, delayedMs: 0, retries: { ...NO_RETRIES } };
  }
}

const gates = new Map<string, ClusterGate>();

/** The process's gate for `cluster`, made on first use; a given limit replaces the one in force. */
export function clusterGate(cluster: string, limit?: RateLimit): ClusterGate {
  let gate = gates.get(cluster);
  if (gate === undefined) {
    gate = new ClusterGate(cluster, limit ?? DEFAULT_API_RATE_LIMIT);
    gates.set(cluster, gate);
  } else if (limit !== undefined) {
    gate.setLimit(limit);
  }
  return gate;
}
