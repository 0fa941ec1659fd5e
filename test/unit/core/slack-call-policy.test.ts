import { describe, expect, it } from 'vitest';
import { nextSlackAttempt, SLACK_BACKOFF_CAP_MS } from '../../../src/core/slack-call-policy.js';

describe('nextSlackAttempt', () => {
  it('never retries a refusal', () => {
    expect(nextSlackAttempt({ kind: 'final' }, 1, 60_000, 0)).toEqual({
      action: 'give-up',
      reason: 'final',
    });
  });

  it('waits at least Retry-After on a 429, however many 429s came before', () => {
    for (const attempt of [1, 5, 50]) {
      const decision = nextSlackAttempt(
        { kind: 'rate-limited', retryAfterMs: 30_000 },
        attempt,
        300_000,
        0.5,
      );
      expect(decision).toMatchObject({ action: 'retry', reconcile: false });
      expect(decision.action === 'retry' && decision.afterMs).toBeGreaterThanOrEqual(30_000);
    }
  });

  it('gives up at the deadline instead of waiting past it', () => {
    expect(nextSlackAttempt({ kind: 'rate-limited', retryAfterMs: 30_000 }, 1, 10_000, 0)).toEqual({
      action: 'give-up',
      reason: 'deadline',
    });
    expect(nextSlackAttempt({ kind: 'transient' }, 10, 1_000, 0)).toEqual({
      action: 'give-up',
      reason: 'deadline',
    });
  });

  it('backs off exponentially on transient failures, capped, with jitter', () => {
    const waits = [1, 2, 3, 4, 8].map((attempt) => {
      const d = nextSlackAttempt({ kind: 'transient' }, attempt, 600_000, 0.5);
      return d.action === 'retry' ? d.afterMs : -1;
    });
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, SLACK_BACKOFF_CAP_MS]);
    const low = nextSlackAttempt({ kind: 'transient' }, 1, 600_000, 0);
    const high = nextSlackAttempt({ kind: 'transient' }, 1, 600_000, 0.999);
    expect(low.action === 'retry' && low.afterMs).toBe(750);
    expect(high.action === 'retry' && high.afterMs).toBe(1_250);
  });

  it('asks to look for the earlier attempt only when its outcome is unknown', () => {
    expect(nextSlackAttempt({ kind: 'uncertain' }, 1, 60_000, 0)).toMatchObject({
      action: 'retry',
      reconcile: true,
    });
    expect(nextSlackAttempt({ kind: 'transient' }, 1, 60_000, 0)).toMatchObject({
      reconcile: false,
    });
  });
});
