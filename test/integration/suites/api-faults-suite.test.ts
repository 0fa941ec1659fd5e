// The api-faults suite's reduced form: a clean pre-flight on the twin, then a pre-flight, a
// cutover and a rollback under every API fault at once (5xx, 429 with Retry-After, a 2 s latency tail, 409s,
// reset connections, dropped watches), through the terminal program and the real client. The
// faulted runs end as the clean ones (same findings, cutover verified, rollback verified) with
// zero invariant violations, and the faults really were injected and retried.
import { describe, expect, it } from 'vitest';
import { runApiFaultsSuite } from '../../../suite/api-faults/run.js';

describe('api-faults suite (reduced)', () => {
  it('ends every run as the clean run did, with zero invariant violations', async () => {
    const { clean, results } = await runApiFaultsSuite({
      nodes: ['blue-1'],
      // Under a minute: the clean pre-flight only, and a lighter tail of the slow faults.
      baseline: 'preflight',
      profiles: [
        {
          name: 'all-at-once',
          faults: [
            { kind: 'latency', ms: 2_000, rate: 0.01 },
            { kind: 'error', status: 503, rate: 0.1 },
            { kind: 'throttle', rate: 0.05, retryAfterSeconds: 1 },
            { kind: 'conflict', rate: 0.3 },
            { kind: 'reset', rate: 0.03 },
            { kind: 'watch-drop', everySeconds: 1 },
          ],
        },
      ],
    });
    expect(clean.violations).toEqual([]);
    const [faulted] = results;
    expect(faulted?.violations).toEqual([]);
    expect(faulted).toMatchObject({ preflight: 'same', cutover: 'verified', rollback: 'verified' });
    // The faults were there, and the client went through them rather than around them.
    expect(faulted?.injected.error).toBeGreaterThan(0);
    expect(faulted?.injected.throttle).toBeGreaterThan(0);
    expect(faulted?.injected.conflict).toBeGreaterThan(0);
    expect(faulted?.clientRetries.throttled).toBeGreaterThan(0);
    expect(faulted?.clientRetries['server-error']).toBeGreaterThan(0);
    expect(faulted?.clientRetries.conflict).toBeGreaterThan(0);
  }, 120_000);
});
