/**
 * A token bucket, as client-go's default client-side rate limiter (flowcontrol's token bucket
 * over golang.org/x/time/rate): `qps` tokens a second, at most `burst` saved up. Each request
 * reserves one token; when none is left the reservation is a wait, and later requests queue
 * behind it, so the rate holds however many callers share the bucket.
 */
export interface RateLimit {
  qps: number;
  burst: number;
}

/**
 * client-go's rest.Config defaults are 5 QPS, burst 10 (DefaultQPS, DefaultBurst). A pre-flight
 * execs about a dozen commands per node with 20 nodes probed at once, which at 5 QPS would take
 * minutes on a large cluster, so the default here is ten times that; the clusters file sets it
 * per cluster (apiRateLimit).
 */
export const DEFAULT_API_RATE_LIMIT: RateLimit = { qps: 50, burst: 100 };

/**
 * Execs (pods/exec) have a bucket of their own. kube-apiserver serves an exec as a long-running
 * request (its LongRunningFunc lists the exec subresource), and API Priority and Fairness skips
 * long-running non-watch requests entirely (apiserver filters/priority-and-fairness.go), so an
 * exec takes no seat from the reads and writes the cluster's controllers need; its work is a
 * stream to one node's kubelet. What bounds the API server's share is the number in flight, which
 * probe.concurrency caps (20 nodes, one command each at a time). Sharing the 50/s bucket made
 * `--probe all` of 5,000 nodes (about seven commands each) take over ten minutes.
 */
export const DEFAULT_EXEC_RATE_LIMIT: RateLimit = { qps: 200, burst: 200 };

export interface Bucket {
  /** Tokens at `atMs`; below zero when requests are already waiting for tokens not yet there. */
  tokens: number;
  atMs: number;
}

export function fullBucket(limit: RateLimit, nowMs: number): Bucket {
  return { tokens: limit.burst, atMs: nowMs };
}

/** Reserves one token at `nowMs`: how long the request waits, and the bucket after it. */
export function reserve(
  bucket: Bucket,
  limit: RateLimit,
  nowMs: number,
): { waitMs: number; bucket: Bucket } {
  const elapsed = Math.max(0, nowMs - bucket.atMs);
  const refilled = Math.min(limit.burst, bucket.tokens + (elapsed * limit.qps) / 1000);
  const tokens = refilled - 1;
  const waitMs = tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / limit.qps);
  return { waitMs, bucket: { tokens, atMs: Math.max(nowMs, bucket.atMs) } };
}
