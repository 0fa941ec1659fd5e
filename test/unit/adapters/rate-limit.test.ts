import { describe, expect, it } from 'vitest';
import {
  ClusterGate,
  clusterGate,
  DEFAULT_EXEC_RATE_LIMIT,
} from '../../../src/adapters/kubernetes/rate-limit.js';

describe('ClusterGate', () => {
  it('draws execs from a bucket of their own, so a probe of many nodes leaves reads their share', async () => {
    // A clock that stands still: no bucket refills, so what waits depends only on the tokens.
    const gate = new ClusterGate('c', { qps: 100, burst: 1 }, () => 1_000, { qps: 100, burst: 5 });
    await gate.take();
    for (let i = 0; i < 5; i += 1) await gate.takeExec();
    expect(gate.stats()).toMatchObject({ requests: 6, execs: 5, delayed: 0 });
    // The reads' bucket is empty after its one token: the next read waits, the execs did not.
    await gate.take();
    expect(gate.stats()).toMatchObject({ requests: 7, execs: 5, delayed: 1 });
    // The exec bucket runs dry on its own too.
    await gate.takeExec();
    expect(gate.stats()).toMatchObject({ execs: 6, delayed: 2 });
  });

  it('takes the clusters file limits for both buckets, and keeps the exec limit when only one is given', () => {
    const gate = clusterGate('rate-limit-test', { qps: 5, burst: 5 });
    expect(gate.execRateLimit).toEqual(DEFAULT_EXEC_RATE_LIMIT);
    clusterGate('rate-limit-test', { qps: 7, burst: 7 }, { qps: 70, burst: 70 });
    expect(gate.rateLimit).toEqual({ qps: 7, burst: 7 });
    expect(gate.execRateLimit).toEqual({ qps: 70, burst: 70 });
    clusterGate('rate-limit-test', { qps: 8, burst: 8 });
    expect(gate.execRateLimit).toEqual({ qps: 70, burst: 70 });
  });
});
