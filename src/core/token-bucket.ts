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
