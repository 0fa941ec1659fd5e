// Who may hold the cluster lock, and the MicroTime form real API servers insist on.
import { describe, expect, it } from 'vitest';
import { decideLease } from '../../../src/core/lease.js';
import { microTime } from '../../../src/core/micro-time.js';
import type { KubeLease } from '../../../src/core/kube.js';

const now = Date.parse('2026-12-01T12:00:00.000Z');
const lease = (holder: string, renewedSecondsAgo: number, duration = 30): KubeLease => ({
  metadata: { name: 'proxy-migrate-lock', resourceVersion: '7' },
  spec: {
    holderIdentity: holder,
    leaseDurationSeconds: duration,
    renewTime: microTime(new Date(now - renewedSecondsAgo * 1000)),
    leaseTransitions: 2,
  },
});

describe('decideLease', () => {
  it('creates a missing Lease and renews its own', () => {
    expect(decideLease(undefined, 'proxy-migrate/co-1', now)).toEqual({ kind: 'create' });
    expect(decideLease(lease('proxy-migrate/co-1', 5), 'proxy-migrate/co-1', now)).toEqual({
      kind: 'renew',
      resourceVersion: '7',
      transitions: 2,
    });
  });

  it('refuses a live Lease of another holder, and takes over an expired or empty one', () => {
    expect(decideLease(lease('proxy-migrate/co-2', 5), 'proxy-migrate/co-1', now)).toEqual({
      kind: 'held',
      holder: 'proxy-migrate/co-2',
      expiresAt: now + 25_000,
    });
    expect(decideLease(lease('proxy-migrate/co-2', 31), 'proxy-migrate/co-1', now)).toEqual({
      kind: 'take-over',
      resourceVersion: '7',
      previousHolder: 'proxy-migrate/co-2',
      transitions: 2,
    });
    expect(decideLease(lease('', 1), 'proxy-migrate/co-1', now).kind).toBe('take-over');
  });
});

describe('microTime', () => {
  it('writes six fractional digits, as metav1.MicroTime parses them', () => {
    expect(microTime(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
  });
});
