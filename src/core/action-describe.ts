/** One line per action for people: the plan preview, the approval card, the journal in audits. */
import type { ClusterAction, NodeSelector, UpdateStrategy } from './actions.js';

function strategyText(s: UpdateStrategy): string {
  const ru = s.rollingUpdate;
  if (s.type !== 'RollingUpdate' || ru === undefined) return s.type;
  const parts = [
    ru.maxUnavailable === undefined ? undefined : `maxUnavailable ${ru.maxUnavailable}`,
    ru.maxSurge === undefined ? undefined : `maxSurge ${ru.maxSurge}`,
  ].filter((p): p is string => p !== undefined);
  return parts.length === 0 ? s.type : `${s.type} (${parts.join(', ')})`;
}

function termsText(selector: NodeSelector | null): string {
  if (selector === null) return 'none';
  const n = selector.nodeSelectorTerms.length;
  return `${n} term${n === 1 ? '' : 's'}`;
}

export function describe(action: ClusterAction): string {
  switch (action.kind) {
    case 'ensure-configmap': {
      const verb = action.previous === null ? 'create' : 'update';
      const keys = Object.keys(action.desired.data).sort().join(', ');
      return `${verb} ConfigMap ${action.ref.namespace}/${action.ref.name} (keys ${keys})`;
    }
    case 'delete-configmap':
      return `delete ConfigMap ${action.ref.namespace}/${action.ref.name}`;
    case 'ensure-daemonset': {
      const verb = action.previous === null ? 'create' : 'update';
      const selector = action.desired.spec?.template?.spec?.nodeSelector ?? {};
      const sel = Object.entries(selector)
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      return `${verb} DaemonSet ${action.ref.namespace}/${action.ref.name} (runs on nodes with ${sel || 'any labels'})`;
    }
    case 'delete-daemonset':
      return `delete DaemonSet ${action.ref.namespace}/${action.ref.name}`;
    case 'set-update-strategy':
      return `set DaemonSet ${action.ref.namespace}/${action.ref.name} updateStrategy to ${strategyText(action.strategy)} (was ${strategyText(action.previous)}; no pod restarts)`;
    case 'set-node-affinity':
      return `set DaemonSet ${action.ref.namespace}/${action.ref.name} required node affinity to ${termsText(action.required)} (was ${termsText(action.previous)}): ${action.purpose}`;
    case 'label-node':
      return `label node ${action.node} ${action.key}=${action.value}${action.previous === null ? '' : ` (was ${action.previous})`}`;
    case 'unlabel-node':
      return `remove label ${action.key} from node ${action.node} (was ${action.previous})`;
    case 'annotate-node': {
      const parts = Object.entries(action.annotations).map(([k, v]) =>
        v === null ? `-${k}` : `${k}=${v}`,
      );
      return `annotate node ${action.node} ${parts.join(' ')}`;
    }
    case 'create-probe-pod':
      return `create probe pod ${action.ref.namespace}/${action.ref.name} on node ${action.node} (${action.image})`;
    case 'delete-probe-pod':
      return `delete probe pod ${action.ref.namespace}/${action.ref.name}`;
    case 'create-probe-daemonset':
      return `create probe DaemonSet ${action.ref.namespace}/${action.ref.name} on ${action.nodes === null ? 'every node' : `${action.nodes.length} nodes`} (${action.image})`;
    case 'delete-probe-daemonset':
      return `delete probe DaemonSet ${action.ref.namespace}/${action.ref.name} and its pods`;
    case 'acquire-lease':
      return `take Lease ${action.ref.namespace}/${action.ref.name} for ${action.holder} (${action.durationSeconds} s, renewed while working)`;
    case 'renew-lease':
      return `renew Lease ${action.ref.namespace}/${action.ref.name}`;
    case 'release-lease':
      return `release Lease ${action.ref.namespace}/${action.ref.name}`;
  }
}
