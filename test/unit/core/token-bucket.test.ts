// The per-cluster client-side rate limit: a token bucket as client-go's (qps, burst).
import { describe, expect, it } from 'vitest';
import { fullBucket, reserve, type Bucket } from '../../../src/core/token-bucket.js';

const limit = { qps: 5, burst: 10 };

function waits(bucket: Bucket, times: readonly number[]): number[] {
  let b = bucket;
  return times.map((t) => {
    const r = reserve(b, limit, t);
    b = r.bucket;
    return r.waitMs;
  });
}

describe('token bucket', () => {
  it('lets a burst through at once, then spaces requests at 1/qps', () => {
    const out = waits(
      fullBucket(limit, 0),
      Array.from({ length: 13 }, () => 0),
    );
    expect(out.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 0));
    expect(out.slice(10)).toEqual([200, 400, 600]);
  });

  it('refills at qps up to the burst, never beyond', () => {
    let b = fullBucket(limit, 0);
    for (let i = 0; i < 10; i += 1) b = reserve(b, limit, 0).bucket;
    // 1 s later: 5 tokens back.
    expect(waits(b, [1000, 1000, 1000, 1000, 1000, 1000])).toEqual([0, 0, 0, 0, 0, 200]);
    // An hour idle saves up no more than the burst.
    expect(waits(fullBucket(limit, 0), [3_600_000]).at(0)).toBe(0);
    expect(reserve(fullBucket(limit, 0), limit, 3_600_000).bucket.tokens).toBe(9);
  });

  it('holds the rate however many callers share it: n requests past the burst take (n - burst) / qps', () => {
    const n = 60;
    const out = waits(
      fullBucket(limit, 0),
      Array.from({ length: n }, () => 0),
    );
    expect(Math.max(...out)).toBe(((n - limit.burst) * 1000) / limit.qps);
  });

  it('ignores a clock that steps back', () => {
    const b = reserve(fullBucket(limit, 1000), limit, 1000).bucket;
    expect(reserve(b, limit, 500).bucket.atMs).toBe(1000);
  });
});
