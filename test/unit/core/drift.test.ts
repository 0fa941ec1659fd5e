// The drift guard's decision: each distinct drift is posted once, with a button id of its own;
// the same set posts nothing; drifts that clear post "resolved"; a run holding the lock and a
// cluster with no migration post nothing.
import { describe, expect, it } from 'vitest';
import type { Violation } from '../../../src/core/cluster-status.js';
import {
  decideDrift,
  driftFingerprint,
  driftKey,
  type DriftDecision,
  type DriftObservation,
  type DriftRecord,
} from '../../../src/core/drift.js';

const strategy: Violation = {
  invariant: 'original-strategy',
  subject: 'DaemonSet kube-system/kube-proxy',
  message: 'DaemonSet kube-system/kube-proxy is RollingUpdate again, not OnDelete',
  repair: 'Set it back to OnDelete.',
};
const affinity: Violation = {
  invariant: 'original-affinity',
  subject: 'DaemonSet kube-system/kube-proxy',
  message: 'no NotIn term',
  repair: 'Add the NotIn term.',
};
const two: Violation = {
  invariant: 'two-kube-proxies',
  subject: 'blue-1',
  message: 'blue-1 runs 2 kube-proxy pods',
  repair: 'Delete the original pod.',
};

function seen(violations: Violation[], over: Partial<DriftObservation> = {}): DriftObservation {
  return {
    cluster: 'cluster-a',
    inProgress: true,
    lockHeld: false,
    violations,
    at: '2026-11-29T14:02:00.000Z',
    ...over,
  };
}

/** The record a decision leaves, for the next check. */
function recordOf(decision: DriftDecision): DriftRecord | undefined {
  return decision.record;
}

describe('decideDrift', () => {
  it('posts nothing for a cluster with no migration in progress, whatever status finds', () => {
    const d = decideDrift(undefined, seen([two], { inProgress: false }));
    expect(d).toEqual({ kind: 'nothing', reason: 'no-migration', record: undefined });
  });

  it('posts nothing while the invariants hold', () => {
    expect(decideDrift(undefined, seen([]))).toMatchObject({
      kind: 'nothing',
      reason: 'unchanged',
      record: undefined,
    });
  });

  it('alerts on a new drift with its repair and an id, and keeps the fingerprint', () => {
    const d = decideDrift(undefined, seen([strategy]));
    if (d.kind !== 'alert') throw new Error(d.kind);
    expect(d.added).toHaveLength(1);
    expect(d.added[0]).toMatchObject({
      invariant: 'original-strategy',
      repair: 'Set it back to OnDelete.',
      key: driftKey(strategy),
    });
    expect(d.added[0]?.id).toMatch(/^dr-[0-9a-f]{16}$/);
    expect(d.ongoing).toEqual([]);
    expect(d.fingerprint).toBe(driftFingerprint([driftKey(strategy)]));
    expect(d.record.fingerprint).toBe(d.fingerprint);
    expect(d.record.drifts).toEqual([
      {
        key: driftKey(strategy),
        invariant: strategy.invariant,
        subject: strategy.subject,
        id: d.added[0]?.id,
      },
    ]);
  });

  it('posts nothing the second time the same drift is seen, and keeps its id', () => {
    const first = decideDrift(undefined, seen([strategy]));
    const second = decideDrift(
      recordOf(first),
      seen([{ ...strategy, message: 'reworded' }], { at: '2026-11-29T14:12:00.000Z' }),
    );
    expect(second).toEqual({ kind: 'nothing', reason: 'unchanged', record: recordOf(first) });
  });

  it('alerts again only for the drift that is new; the one already posted stays with its id', () => {
    const first = decideDrift(undefined, seen([strategy]));
    const d = decideDrift(recordOf(first), seen([two, strategy], { at: '2026-11-29T14:12:00Z' }));
    if (d.kind !== 'alert' || first.kind !== 'alert') throw new Error(d.kind);
    expect(d.added.map((a) => a.invariant)).toEqual(['two-kube-proxies']);
    expect(d.ongoing.map((a) => [a.invariant, a.id])).toEqual([
      ['original-strategy', first.added[0]?.id],
    ]);
    expect(d.added[0]?.id).not.toBe(first.added[0]?.id);
    expect(d.fingerprint).not.toBe(first.fingerprint);
    expect(new Set(d.record.drifts.map((r) => r.invariant))).toEqual(
      new Set(['two-kube-proxies', 'original-strategy']),
    );
  });

  it('says resolved once when the drift clears, and drops the record', () => {
    const first = decideDrift(undefined, seen([strategy]));
    const d = decideDrift(recordOf(first), seen([]));
    expect(d).toMatchObject({
      kind: 'resolved',
      cleared: [{ invariant: 'original-strategy' }],
      remaining: [],
      migrationEnded: false,
      record: undefined,
    });
    expect(decideDrift(recordOf(d), seen([]))).toMatchObject({ kind: 'nothing' });
  });

  it('says resolved for the part that cleared and keeps the rest', () => {
    const first = decideDrift(undefined, seen([strategy, affinity]));
    const d = decideDrift(recordOf(first), seen([affinity]));
    if (d.kind !== 'resolved') throw new Error(d.kind);
    expect(d.cleared.map((c) => c.invariant)).toEqual(['original-strategy']);
    expect(d.remaining.map((c) => c.invariant)).toEqual(['original-affinity']);
    expect(d.record?.drifts.map((c) => c.invariant)).toEqual(['original-affinity']);
    expect(d.record?.fingerprint).toBe(driftFingerprint([driftKey(affinity)]));
  });

  it('says resolved when the migration ended under a posted drift', () => {
    const first = decideDrift(undefined, seen([strategy]));
    expect(decideDrift(recordOf(first), seen([strategy], { inProgress: false }))).toMatchObject({
      kind: 'resolved',
      migrationEnded: true,
      record: undefined,
    });
  });

  it('decides nothing while a run holds the cluster lock: its half-done writes are not drift', () => {
    const first = decideDrift(undefined, seen([strategy]));
    expect(decideDrift(recordOf(first), seen([], { lockHeld: true }))).toEqual({
      kind: 'nothing',
      reason: 'run-in-flight',
      record: recordOf(first),
    });
    expect(decideDrift(undefined, seen([two], { lockHeld: true }))).toMatchObject({
      kind: 'nothing',
      reason: 'run-in-flight',
    });
  });

  it('counts a drift once however often status lists it, and fingerprints ignore order', () => {
    const d = decideDrift(undefined, seen([strategy, strategy]));
    expect(d.kind === 'alert' && d.added).toHaveLength(1);
    expect(driftFingerprint(['b', 'a', 'a'])).toBe(driftFingerprint(['a', 'b']));
    expect(driftFingerprint(['a'])).not.toBe(driftFingerprint(['a', 'b']));
  });
});
