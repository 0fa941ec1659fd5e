/**
 * The Kubernetes permissions behind every action and every read a run makes. deploy/rbac.yaml is
 * checked against this table by a test, so an action without its rule, or a rule no code needs,
 * fails the build instead of a cutover.
 */
import type { ActionKind } from './actions.js';

export const CANARY_NAME = 'kube-proxy-nftables';
export const LOCK_LEASE_NAME = 'proxy-migrate-lock';
/** The original DaemonSet names the canary may patch (kubeadm, EKS and most installers). */
export const ORIGINAL_DAEMONSET_NAMES = ['kube-proxy'] as const;

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

/** Where a permission applies: cluster-wide, or kube-proxy's or the probe pods' namespace. */
export type PermissionScope = 'cluster' | 'kube-proxy-namespace' | 'probe-namespace';

export interface Permission {
  apiGroup: string;
  resource: string;
  verbs: readonly Verb[];
  scope: PermissionScope;
  /** Restricts the verbs to these names; RBAC cannot restrict `create` or `list` by name. */
  resourceNames?: readonly string[];
}

const canaryConfigMap: Permission[] = [
  { apiGroup: '', resource: 'configmaps', verbs: ['create'], scope: 'kube-proxy-namespace' },
  {
    apiGroup: '',
    resource: 'configmaps',
    verbs: ['get', 'update', 'delete'],
    scope: 'kube-proxy-namespace',
    resourceNames: [CANARY_NAME],
  },
];

const canaryDaemonSet: Permission[] = [
  { apiGroup: 'apps', resource: 'daemonsets', verbs: ['create'], scope: 'kube-proxy-namespace' },
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['get', 'update', 'delete'],
    scope: 'kube-proxy-namespace',
    resourceNames: [CANARY_NAME],
  },
];

const originalDaemonSet: Permission[] = [
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['get', 'patch'],
    scope: 'kube-proxy-namespace',
    resourceNames: [...ORIGINAL_DAEMONSET_NAMES],
  },
];

const nodes: Permission[] = [
  { apiGroup: '', resource: 'nodes', verbs: ['get', 'patch'], scope: 'cluster' },
];

const probePods: Permission[] = [
  { apiGroup: '', resource: 'pods', verbs: ['create', 'delete'], scope: 'probe-namespace' },
];

/** The fleet probe: one DaemonSet per run, under one of a few fixed names (RBAC pins them). */
export const PROBE_DAEMONSET_NAMES = [
  'proxy-migrate-probe-0',
  'proxy-migrate-probe-1',
  'proxy-migrate-probe-2',
  'proxy-migrate-probe-3',
] as const;

const probeDaemonSet: Permission[] = [
  { apiGroup: 'apps', resource: 'daemonsets', verbs: ['create'], scope: 'probe-namespace' },
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['get', 'delete'],
    scope: 'probe-namespace',
    resourceNames: [...PROBE_DAEMONSET_NAMES],
  },
];

const lease: Permission[] = [
  {
    apiGroup: 'coordination.k8s.io',
    resource: 'leases',
    verbs: ['create'],
    scope: 'kube-proxy-namespace',
  },
  {
    apiGroup: 'coordination.k8s.io',
    resource: 'leases',
    verbs: ['get', 'update', 'delete'],
    scope: 'kube-proxy-namespace',
    resourceNames: [LOCK_LEASE_NAME],
  },
];

export const actionPermissions: Readonly<Record<ActionKind, readonly Permission[]>> = {
  'ensure-configmap': canaryConfigMap,
  'delete-configmap': canaryConfigMap,
  'ensure-daemonset': canaryDaemonSet,
  'delete-daemonset': canaryDaemonSet,
  'set-update-strategy': originalDaemonSet,
  'set-node-affinity': originalDaemonSet,
  'label-node': nodes,
  'unlabel-node': nodes,
  'annotate-node': nodes,
  'create-probe-pod': probePods,
  'delete-probe-pod': probePods,
  'create-probe-daemonset': probeDaemonSet,
  'delete-probe-daemonset': probeDaemonSet,
  'acquire-lease': lease,
  'renew-lease': lease,
  'release-lease': lease,
};

/** What runs read besides the writes above: pre-flight's lists, waits, probes and evidence. */
export const readPermissions: readonly Permission[] = [
  { apiGroup: '', resource: 'nodes', verbs: ['list'], scope: 'cluster' },
  { apiGroup: '', resource: 'services', verbs: ['list'], scope: 'cluster' },
  // Verification calls a NodePort whose Service has ready endpoints.
  { apiGroup: 'discovery.k8s.io', resource: 'endpointslices', verbs: ['list'], scope: 'cluster' },
  { apiGroup: '', resource: 'configmaps', verbs: ['list'], scope: 'cluster' },
  { apiGroup: '', resource: 'pods', verbs: ['list'], scope: 'cluster' },
  {
    apiGroup: 'monitoring.coreos.com',
    resource: 'prometheusrules',
    verbs: ['list'],
    scope: 'cluster',
  },
  { apiGroup: 'apps', resource: 'daemonsets', verbs: ['list'], scope: 'kube-proxy-namespace' },
  // kube-proxy's own ConfigMap, whatever the distribution names it (kube-proxy, kube-proxy-config):
  // the cluster-wide list already shows every ConfigMap, so `get` reveals nothing more.
  { apiGroup: '', resource: 'configmaps', verbs: ['get'], scope: 'kube-proxy-namespace' },
  // The canary's and the original's kube-proxy log: "Using nftables Proxier", sync errors.
  { apiGroup: '', resource: 'pods/log', verbs: ['get'], scope: 'kube-proxy-namespace' },
  { apiGroup: '', resource: 'pods', verbs: ['get'], scope: 'probe-namespace' },
  // WebSocket exec is authorised as `create` since Kubernetes 1.30 and as `get` before it.
  { apiGroup: '', resource: 'pods/exec', verbs: ['create', 'get'], scope: 'probe-namespace' },
];
