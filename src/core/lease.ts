/**
 * Who may hold the cluster lock, decided from the Lease as read: free, ours, expired (a holder
 * that stopped renewing, e.g. a crashed process, loses it after leaseDurationSeconds, as in
 * client-go's leader election), or held by someone else.
 */
import type { KubeLease } from './kube.js';
import { parseMicroTime } from './micro-time.js';

export type LeaseDecision =
  | { kind: 'create' }
  | { kind: 'renew'; resourceVersion: string; transitions: number }
  | { kind: 'take-over'; resourceVersion: string; previousHolder: string; transitions: number }
  | { kind: 'held'; holder: string; expiresAt: number };

export function decideLease(
  lease: KubeLease | undefined,
  holder: string,
  nowMs: number,
): LeaseDecision {
  if (lease === undefined) return { kind: 'create' };
  const spec = lease.spec ?? {};
  const resourceVersion = lease.metadata.resourceVersion ?? '';
  const transitions = spec.leaseTransitions ?? 0;
  const current = spec.holderIdentity ?? '';
  if (current === holder) return { kind: 'renew', resourceVersion, transitions };
  const renewed = parseMicroTime(spec.renewTime ?? spec.acquireTime);
  const expiresAt = renewed + (spec.leaseDurationSeconds ?? 0) * 1000;
  if (current === '' || Number.isNaN(expiresAt) || expiresAt <= nowMs) {
    return { kind: 'take-over', resourceVersion, previousHolder: current, transitions };
  }
  return { kind: 'held', holder: current, expiresAt };
}
