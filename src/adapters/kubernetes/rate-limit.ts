/**
 * One request gate per cluster, shared by everything in the process that talks to that cluster
 * (the reads, the writes, the probe pods' execs; the bot's jobs and a terminal run alike): a
 * client-side token bucket, so a pre-flight of 200 nodes cannot flood the API server the
 * migration depends on, plus counters of what the gate and the retries did, for logs and suites.
 */
import {
  DEFAULT_API_RATE_LIMIT,
  DEFAULT_EXEC_RATE_LIMIT,
  fullBucket,
  reserve,
  type Bucket,
  type RateLimit,
} from '../../core/token-bucket.js';

export { DEFAULT_API_RATE_LIMIT, DEFAULT_EXEC_RATE_LIMIT } from '../../core/token-bucket.js';

export type RetryReason = 'throttled' | 'server-error' | 'timeout' | 'connection' | 'conflict';

export interface GateStats {
  /** Requests that passed the gate (every attempt, retries included; execs too). */
  requests: number;
  /** Of those, the execs (their own bucket: see DEFAULT_EXEC_RATE_LIMIT). */
  execs: number;
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

const noCounts = (): GateStats => ({
  requests: 0,
  execs: 0,
  delayed: 0,
  delayedMs: 0,
  retries: { ...NO_RETRIES },
});

export class ClusterGate {
  private bucket: Bucket;
  private execBucket: Bucket;
  private counts: GateStats = noCounts();

  constructor(
    readonly cluster: string,
    private limit: RateLimit,
    private readonly now: () => number = Date.now,
    private execLimit: RateLimit = DEFAULT_EXEC_RATE_LIMIT,
  ) {
    this.bucket = fullBucket(limit, now());
    this.execBucket = fullBucket(execLimit, now());
  }

  get rateLimit(): RateLimit {
    return this.limit;
  }

  get execRateLimit(): RateLimit {
    return this.execLimit;
  }

  /** A clusters file read again (the bot reloads it) may change the limits; the buckets stay. */
  setLimit(limit: RateLimit, execLimit?: RateLimit): void {
    this.limit = limit;
    if (execLimit !== undefined) this.execLimit = execLimit;
  }

  /** Waits for a token. The wait is bounded: burst and QPS fix how long the queue can be. */
  async take(): Promise<void> {
    const { waitMs, bucket } = reserve(this.bucket, this.limit, this.now());
    this.bucket = bucket;
    await this.wait(waitMs);
  }

  /** Waits for an exec token, from the execs' own bucket. */
  async takeExec(): Promise<void> {
    const { waitMs, bucket } = reserve(this.execBucket, this.execLimit, this.now());
    this.execBucket = bucket;
    this.counts.execs += 1;
    await this.wait(waitMs);
  }

  private async wait(waitMs: number): Promise<void> {
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
    this.counts = noCounts();
  }
}

const gates = new Map<string, ClusterGate>();

/** The process's gate for `cluster`, made on first use; given limits replace those in force. */
export function clusterGate(
  cluster: string,
  limit?: RateLimit,
  execLimit?: RateLimit,
): ClusterGate {
  let gate = gates.get(cluster);
  if (gate === undefined) {
    gate = new ClusterGate(
      cluster,
      limit ?? DEFAULT_API_RATE_LIMIT,
      Date.now,
      execLimit ?? DEFAULT_EXEC_RATE_LIMIT,
    );
    gates.set(cluster, gate);
  } else if (limit !== undefined || execLimit !== undefined) {
    gate.setLimit(limit ?? gate.rateLimit, execLimit);
  }
  return gate;
}
