/**
 * Cutover: move one node's kube-proxy from IPVS to nftables through the canary DaemonSet, with
 * proof. The node is first labelled `switching`, which the original DaemonSet's NotIn term
 * excludes and the canary does not select, so the old pod is gone before the new one is
 * created: never two kube-proxies on one node. A failed verification or a missed deadline after
 * the first write rolls the node back (unless auto-rollback is off) and verifies the way back.
 */
import type { Runbook, Step } from '../core/runbook.js';
import { rollbackSteps } from './rollback.js';

/**
 * After the plan: the approval, the cluster lock, the plan computed again and unchanged, then
 * the shared objects written until the plan is empty. A cutover goes on to the node; a repair
 * (the drift guard's) ends here.
 */
export const approvedSharedWrites = [
  { id: 'approval', kind: 'approval', uses: 'approval', title: 'approved' },
  { id: 'lock', kind: 'lock', uses: 'cluster-lease', title: 'cluster lock taken', attempts: 3 },
  {
    id: 'plan-unchanged',
    kind: 'gate',
    uses: 'plan-unchanged',
    title: 'plan unchanged since approval',
    attempts: 3,
  },
  {
    id: 'canary',
    kind: 'apply',
    uses: 'canary-objects',
    title: 'canary objects ready',
    attempts: 3,
  },
] as const satisfies readonly Step[];

export const cutoverRunbook = {
  kind: 'cutover',
  title: 'Cutover',
  mutates: true,
  backoffMs: 2_000,
  steps: [
    { id: 'card', kind: 'report', uses: 'status-card', title: 'status card posted', attempts: 5 },
    {
      id: 'node-preflight',
      kind: 'gate',
      uses: 'node-preflight',
      title: 'node pre-flight',
      attempts: 3,
    },
    {
      id: 'reference',
      kind: 'capture',
      uses: 'rollback-reference',
      title: 'rollback reference captured',
      attempts: 3,
    },
    {
      id: 'plan',
      kind: 'plan',
      uses: 'canary-plan',
      title: 'plan confirmed by a dry run',
      attempts: 3,
    },
    ...approvedSharedWrites,
    {
      id: 'switching',
      kind: 'apply',
      uses: 'label-switching',
      title: 'node labelled switching',
      attempts: 3,
    },
    { id: 'old-pod-gone', kind: 'wait', uses: 'kube-proxy-gone', title: 'old pod gone' },
    {
      id: 'switch',
      kind: 'apply',
      uses: 'label-nftables',
      title: 'node labelled nftables',
      attempts: 3,
    },
    { id: 'new-pod-ready', kind: 'wait', uses: 'canary-ready', title: 'new pod Ready' },
    { id: 'verify', kind: 'verify', uses: 'nftables', title: 'nftables verified' },
    {
      id: 'record',
      kind: 'apply',
      uses: 'record-result',
      title: 'result recorded on the node',
      attempts: 3,
    },
  ],
  rollback: rollbackSteps,
} as const satisfies Runbook;
