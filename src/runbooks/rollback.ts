/**
 * Rollback: move one node back to the original (IPVS) kube-proxy by replaying the inverse of
 * its cutover's node actions, newest first, each followed by the wait its result calls for,
 * then verify the way back with the same rigour as the way there. The same steps are a
 * cutover's automatic rollback.
 */
import type { Runbook, Step } from '../core/runbook.js';

/** Undo the node's journal and prove it: shared by the rollback run and a cutover's rollback. */
export const rollbackSteps = [
  { id: 'revert', kind: 'revert', uses: 'node-journal', title: 'node moved back', attempts: 3 },
  { id: 'verify-back', kind: 'verify', uses: 'ipvs', title: 'IPVS verified' },
  {
    id: 'record-back',
    kind: 'apply',
    uses: 'record-result',
    title: 'result recorded on the node',
    attempts: 3,
  },
] as const satisfies readonly Step[];

export const rollbackRunbook = {
  kind: 'rollback',
  title: 'Rollback',
  mutates: true,
  backoffMs: 2_000,
  steps: [
    { id: 'card', kind: 'report', uses: 'status-card', title: 'status card posted', attempts: 5 },
    { id: 'plan', kind: 'plan', uses: 'rollback-plan', title: 'way back planned', attempts: 3 },
    { id: 'approval', kind: 'approval', uses: 'approval', title: 'confirmed' },
    { id: 'lock', kind: 'lock', uses: 'cluster-lease', title: 'cluster lock taken', attempts: 3 },
    ...rollbackSteps,
  ],
  // A failed rollback is not rolled back again: it needs a person, with the evidence.
  rollback: [],
} as const satisfies Runbook;
