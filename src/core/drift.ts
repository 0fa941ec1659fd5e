/**
 * The drift guard's decision: given what it posted last (the record of the drift set) and the
 * invariants as they stand now, post an alert, post "resolved", or say nothing. Something
 * rewrites the original kube-proxy DaemonSet behind the migration's back (a `kubeadm upgrade`,
 * an EKS add-on update) and two kube-proxies fight on every migrated node; people must hear it
 * once, with the repair, not every ten minutes.
 *
 * A drift is one broken invariant on one subject (`original-strategy` on the DaemonSet,
 * `two-kube-proxies` on a node); the set's fingerprint is a hash of their keys. A new key posts
 * an alert (listing only the new ones, each with its own id for the repair button); keys that
 * disappeared with none new post "resolved"; the same set posts nothing. While a run holds the
 * cluster lock its half-done writes are not drift, so nothing is decided.
 */
import { createHash } from 'node:crypto';
import type { Violation } from './cluster-status.js';

/** One broken invariant, with the key that identifies it across checks and the id its button carries. */
export interface Drift extends Violation {
  key: string;
  id: string;
}

/** What the record keeps of each drift it alerted about. */
export interface RecordedDrift {
  key: string;
  invariant: string;
  subject: string;
  id: string;
}

/** Per cluster, between checks: the drift set people were last told about. */
export interface DriftRecord {
  fingerprint: string;
  drifts: RecordedDrift[];
  /** When the set last changed (an alert or a partial resolution). */
  changedAt: string;
}

export interface DriftObservation {
  cluster: string;
  /** A node labelled, a canary object present, or the original carrying the NotIn term. */
  inProgress: boolean;
  /** A mutating run holds the cluster lock. */
  lockHeld: boolean;
  violations: readonly Violation[];
  /** ISO time of the check. */
  at: string;
}

export type DriftDecision =
  | {
      kind: 'nothing';
      reason: 'no-migration' | 'unchanged' | 'run-in-flight';
      /** The record to keep (unchanged); undefined: none. */
      record: DriftRecord | undefined;
    }
  | {
      kind: 'alert';
      fingerprint: string;
      /** Drifts not in the previous set: the alert lists these, each with a repair button. */
      added: Drift[];
      /** Drifts people were already told about and that still hold. */
      ongoing: Drift[];
      /** Drifts of the previous set that are gone. */
      cleared: RecordedDrift[];
      record: DriftRecord;
    }
  | {
      kind: 'resolved';
      fingerprint: string;
      cleared: RecordedDrift[];
      /** Drifts still broken (already alerted about). */
      remaining: Drift[];
      /** The migration is over (no label, no canary object), so nothing is checked any more. */
      migrationEnded: boolean;
      /** Undefined when nothing remains: the record is deleted. */
      record: DriftRecord | undefined;
    };

export function driftKey(v: Pick<Violation, 'invariant' | 'subject'>): string {
  return `${v.invariant}|${v.subject}`;
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The drift set's fingerprint: order and duplicates do not matter. */
export function driftFingerprint(keys: readonly string[]): string {
  return sha([...new Set(keys)].sort().join('\n')).slice(0, 12);
}

/** The id a drift's button carries: unique per cluster, drift and alert. */
export function driftId(cluster: string, key: string, at: string): string {
  return `dr-${sha(`${cluster}\n${key}\n${at}`).slice(0, 16)}`;
}

export function decideDrift(
  previous: DriftRecord | undefined,
  now: DriftObservation,
): DriftDecision {
  if (now.lockHeld) return { kind: 'nothing', reason: 'run-in-flight', record: previous };
  const seen = new Set<string>();
  const current = (now.inProgress ? now.violations : []).filter((v) => {
    const key = driftKey(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const before = new Map((previous?.drifts ?? []).map((d) => [d.key, d]));
  const fingerprint = driftFingerprint([...seen]);
  const added: Drift[] = [];
  const ongoing: Drift[] = [];
  for (const v of current) {
    const key = driftKey(v);
    const known = before.get(key);
    if (known === undefined) added.push({ ...v, key, id: driftId(now.cluster, key, now.at) });
    else ongoing.push({ ...v, key, id: known.id });
  }
  const cleared = [...before.values()].filter((d) => !seen.has(d.key));
  const recordOf = (drifts: readonly Drift[]): DriftRecord => ({
    fingerprint,
    drifts: drifts.map(({ key, invariant, subject, id }) => ({ key, invariant, subject, id })),
    changedAt: now.at,
  });
  if (added.length > 0) {
    return {
      kind: 'alert',
      fingerprint,
      added,
      ongoing,
      cleared,
      record: recordOf([...ongoing, ...added]),
    };
  }
  if (cleared.length > 0) {
    return {
      kind: 'resolved',
      fingerprint,
      cleared,
      remaining: ongoing,
      migrationEnded: !now.inProgress,
      record: ongoing.length === 0 ? undefined : recordOf(ongoing),
    };
  }
  return {
    kind: 'nothing',
    reason: now.inProgress ? 'unchanged' : 'no-migration',
    record: previous,
  };
}
