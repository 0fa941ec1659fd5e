/**
 * Repair: put the original DaemonSet back the way a migration needs it (OnDelete and the NotIn
 * term on every nodeSelectorTerm) and the canary objects as planned, after something rewrote
 * them behind the tool's back (a `kubeadm upgrade`, an EKS add-on update): the drift guard's
 * repair button starts it. It is the cutover's shared part alone, with the same plan, dry run,
 * approval, lock and plan-unchanged gate; the canary step plans again after every write and
 * ends only when the plan has nothing left to write, which is its verification. No node moves.
 */
import type { Runbook } from '../core/runbook.js';
import { approvedSharedWrites } from './cutover.js';

export const repairRunbook = {
  kind: 'repair',
  title: 'Repair',
  mutates: true,
  backoffMs: 2_000,
  steps: [
    { id: 'card', kind: 'report', uses: 'status-card', title: 'status card posted', attempts: 5 },
    {
      id: 'plan',
      kind: 'plan',
      uses: 'canary-plan',
      title: 'repair planned, confirmed by a dry run',
      attempts: 3,
    },
    ...approvedSharedWrites,
  ],
  // A failed repair leaves the objects as they were found or partly written: a person looks.
  rollback: [],
} as const satisfies Runbook;
