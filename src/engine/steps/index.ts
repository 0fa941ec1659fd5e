/**
 * Every step executor, keyed by the step's kind and `uses` (runbooks name them; the engine looks
 * them up here). A new step is a file in this folder and a line below.
 */
import { executorKey } from '../run-engine.js';
import type { StepExecutor } from '../step-context.js';
import { ensureCanaryObjects, planCutover, planUnchanged } from './canary-plan.js';
import { takeClusterLock } from './cluster-lease.js';
import { labelNftables, labelSwitching } from './node-labels.js';
import { nodePreflight } from './node-preflight.js';
import { gatherPreflight } from './preflight-report.js';
import { postPreflightThread } from './preflight-thread.js';
import { recordResult } from './record-result.js';
import { revertNode } from './revert.js';
import { planRollback } from './rollback-plan.js';
import { postStatusCard } from './status-card.js';
import { captureReference, verifyIpvs, verifyNftables } from './verify.js';
import { canaryReady, oldPodGone } from './waits.js';

const entries: [kind: string, uses: string, executor: StepExecutor][] = [
  ['report', 'status-card', postStatusCard],
  ['capture', 'preflight-report', gatherPreflight],
  ['report', 'preflight-thread', postPreflightThread],
  ['gate', 'node-preflight', nodePreflight],
  ['capture', 'rollback-reference', captureReference],
  ['plan', 'canary-plan', planCutover],
  ['plan', 'rollback-plan', planRollback],
  ['lock', 'cluster-lease', takeClusterLock],
  ['gate', 'plan-unchanged', planUnchanged],
  ['apply', 'canary-objects', ensureCanaryObjects],
  ['apply', 'label-switching', labelSwitching],
  ['wait', 'kube-proxy-gone', oldPodGone],
  ['apply', 'label-nftables', labelNftables],
  ['wait', 'canary-ready', canaryReady],
  ['verify', 'nftables', verifyNftables],
  ['revert', 'node-journal', revertNode],
  ['verify', 'ipvs', verifyIpvs],
  ['apply', 'record-result', recordResult],
];

export const executors: ReadonlyMap<string, StepExecutor> = new Map(
  entries.map(([kind, uses, executor]) => [executorKey(kind, uses), executor]),
);
