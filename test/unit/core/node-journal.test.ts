// A node's way back: the inverse of its label changes, newest first, minus those already undone.
import { describe, expect, it } from 'vitest';
import type { ClusterAction } from '../../../src/core/actions.js';
import { forwardFromLabel, undoable, undoSteps } from '../../../src/core/node-journal.js';
import { labelAfter, settleFor } from '../../../src/core/node-migration.js';
import type { JournalEntry } from '../../../src/core/run-state.js';

const L = 'proxy-migrate.io/mode';
const entry = (
  seq: number,
  action: ClusterAction,
  extra: Partial<JournalEntry> = {},
): JournalEntry => ({
  seq,
  step: 's',
  action,
  status: 'applied',
  at: '2026-12-01T12:00:00.000Z',
  ...extra,
});
const toSwitching: ClusterAction = {
  kind: 'label-node',
  node: 'n1',
  key: L,
  value: 'switching',
  previous: null,
};
const toNft: ClusterAction = {
  kind: 'label-node',
  node: 'n1',
  key: L,
  value: 'nftables',
  previous: 'switching',
};

describe('the node journal', () => {
  it('undoes the label changes newest first, each followed by the wait its result calls for', () => {
    const journal = [
      entry(1, {
        kind: 'set-update-strategy',
        ref: { namespace: 'kube-system', name: 'kube-proxy' },
        strategy: { type: 'OnDelete' },
        previous: { type: 'RollingUpdate' },
        basedOn: '1',
      }),
      entry(2, toSwitching),
      entry(3, toNft),
    ];
    const steps = undoSteps(undoable(journal, 'n1', L));
    expect(
      steps.map((s) => [
        labelAfter(s.action, L),
        s.undoes,
        settleFor(labelAfter(s.action, L) ?? null),
      ]),
    ).toEqual([
      ['switching', 3, 'kube-proxy-gone'],
      [null, 2, 'original-ready'],
    ]);
  });

  it('skips what a later entry undid, what failed, and other nodes', () => {
    const journal = [
      entry(1, toSwitching),
      entry(2, toNft, { status: 'failed' }),
      entry(3, { ...toSwitching, node: 'n2' }),
      entry(4, { kind: 'unlabel-node', node: 'n1', key: L, previous: 'switching' }, { undoes: 1 }),
    ];
    expect(undoable(journal, 'n1', L)).toEqual([]);
  });

  it('rebuilds the forward changes from a live label when no journal is left', () => {
    expect(forwardFromLabel('n1', L, 'nftables')).toEqual([toSwitching, toNft]);
    expect(forwardFromLabel('n1', L, 'switching')).toEqual([toSwitching]);
    expect(forwardFromLabel('n1', L, undefined)).toEqual([]);
  });
});
