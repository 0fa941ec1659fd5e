/** Applies one ClusterAction: the product's only path to a cluster write. */
import type { ClusterAction } from '../../../core/actions.js';
import type { ApplyResult } from '../../../ports/cluster.js';
import { deleteConfigMap, ensureConfigMap } from './configmaps.js';
import { retryConflicts, type ApplyContext } from './context.js';
import {
  deleteDaemonSet,
  ensureDaemonSet,
  setNodeAffinity,
  setUpdateStrategy,
} from './daemonsets.js';
import { acquireLease, releaseLease, renewLease } from './leases.js';
import { annotateNode, labelNode, unlabelNode } from './nodes.js';
import { createProbeDaemonSet, deleteProbeDaemonSet } from './probe-daemonsets.js';
import { createProbePod, deleteProbePod } from './probe-pods.js';

export type { ApplyContext } from './context.js';

export function applyAction(ctx: ApplyContext, action: ClusterAction): Promise<ApplyResult> {
  // Taking the lock is a race the lock judges itself (another holder may have won): no retry.
  if (action.kind === 'acquire-lease') return acquireLease(ctx, action);
  // Every other applier re-reads and re-checks before it writes: a 409, a 5xx, a timeout or a
  // reset gets another attempt, which finds the write done (unchanged) or still to do.
  return retryConflicts(ctx, (attempt) => dispatch(attempt, action));
}

function dispatch(ctx: ApplyContext, action: ClusterAction): Promise<ApplyResult> {
  switch (action.kind) {
    case 'ensure-configmap':
      return ensureConfigMap(ctx, action);
    case 'delete-configmap':
      return deleteConfigMap(ctx, action);
    case 'ensure-daemonset':
      return ensureDaemonSet(ctx, action);
    case 'delete-daemonset':
      return deleteDaemonSet(ctx, action);
    case 'set-update-strategy':
      return setUpdateStrategy(ctx, action);
    case 'set-node-affinity':
      return setNodeAffinity(ctx, action);
    case 'label-node':
      return labelNode(ctx, action);
    case 'unlabel-node':
      return unlabelNode(ctx, action);
    case 'annotate-node':
      return annotateNode(ctx, action);
    case 'create-probe-pod':
      return createProbePod(ctx, action);
    case 'delete-probe-pod':
      return deleteProbePod(ctx, action);
    case 'create-probe-daemonset':
      return createProbeDaemonSet(ctx, action);
    case 'delete-probe-daemonset':
      return deleteProbeDaemonSet(ctx, action);
    case 'acquire-lease':
      return acquireLease(ctx, action);
    case 'renew-lease':
      return renewLease(ctx, action);
    case 'release-lease':
      return releaseLease(ctx, action);
  }
}
