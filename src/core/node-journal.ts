/**
 * Which of a run's writes moved a node, and how to take them back: the label changes on the
 * node's migration label, newest first, minus those already undone. A rollback run with no
 * cutover record for the node (state lost, or migrated by another deployment) rebuilds the
 * forward steps from the node's live label instead.
 */
import type { ClusterAction } from './actions.js';
import { invert } from './actions.js';
import { LABEL_NFTABLES, LABEL_SWITCHING } from './node-migration.js';
import type { JournalEntry } from './run-state.js';

function movesNode(action: ClusterAction, node: string, label: string): boolean {
  return (
    (action.kind === 'label-node' || action.kind === 'unlabel-node') &&
    action.node === node &&
    action.key === label
  );
}

/** The forward label changes of a journal that no later entry undid, newest first. */
export function undoable(
  journal: readonly JournalEntry[],
  node: string,
  label: string,
): JournalEntry[] {
  const undone = new Set(journal.flatMap((e) => (e.undoes === undefined ? [] : [e.undoes])));
  return journal
    .filter((e) => e.undoes === undefined && e.status !== 'failed' && !undone.has(e.seq))
    .filter((e) => movesNode(e.action, node, label))
    .reverse();
}

/** The label changes that bring a node to its live label value, as if a cutover made them. */
export function forwardFromLabel(
  node: string,
  label: string,
  value: string | undefined,
): ClusterAction[] {
  const switching: ClusterAction = {
    kind: 'label-node',
    node,
    key: label,
    value: LABEL_SWITCHING,
    previous: null,
  };
  if (value === LABEL_SWITCHING) return [switching];
  if (value === LABEL_NFTABLES) {
    return [
      switching,
      { kind: 'label-node', node, key: label, value: LABEL_NFTABLES, previous: LABEL_SWITCHING },
    ];
  }
  return [];
}

/** The undo steps, newest first: each an action to apply and (within one run) the seq it undoes. */
export function undoSteps(
  entries: readonly { action: ClusterAction; seq?: number }[],
): { action: ClusterAction; undoes?: number }[] {
  return entries.flatMap((e) => {
    const inverse = invert(e.action);
    return inverse === undefined
      ? []
      : [{ action: inverse, ...(e.seq === undefined ? {} : { undoes: e.seq }) }];
  });
}
