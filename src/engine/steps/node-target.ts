/** What the node steps need to know about their node and the two kube-proxy DaemonSets. */
import { KUBE_SYSTEM } from '../../core/cluster-overview.js';
import { CANARY_NAME } from '../../core/permissions.js';
import type { StepContext } from '../step-context.js';

export interface NodeTarget {
  node: string;
  label: string;
  namespace: string;
  original: string;
  canary: string;
}

export function nodeTarget(ctx: StepContext): NodeTarget {
  const state = ctx.state();
  if (state.node === undefined) throw new Error(`run ${state.id} has no node`);
  const original = state.facts['originalDaemonSet'];
  return {
    node: state.node,
    label: ctx.clusterConfig.migrationLabel,
    namespace: KUBE_SYSTEM,
    original: typeof original === 'string' ? original : 'kube-proxy',
    canary: CANARY_NAME,
  };
}
