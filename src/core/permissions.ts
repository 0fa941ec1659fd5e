/**
 * The Kubernetes permissions behind every action and every read a run makes, each with the reason
 * it is needed. The RBAC the bot gets is built from this table and nothing else
 * (src/core/rbac-manifest.ts renders deploy/rbac.yaml, and `proxy-migrate connect` applies the
 * same objects), so an action without its rule, or a rule no code needs, cannot ship.
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
  /** Why the bot needs it: the comment above the rule in deploy/rbac.yaml. */
  why: string;
}

const canaryConfigMap: Permission[] = [
  {
    apiGroup: '',
    resource: 'configmaps',
    verbs: ['create'],
    scope: 'kube-proxy-namespace',
    why: 'The canary ConfigMap, kube-proxy-nftables: the configuration rewritten for nftables. RBAC cannot pin `create` to a name; deploy/admission-policy.yaml does.',
  },
  {
    apiGroup: '',
    resource: 'configmaps',
    verbs: ['get', 'update', 'delete'],
    scope: 'kube-proxy-namespace',
    resourceNames: [CANARY_NAME],
    why: '… then read, update and delete it by name only.',
  },
];

const canaryDaemonSet: Permission[] = [
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['create'],
    scope: 'kube-proxy-namespace',
    why: 'The canary DaemonSet, kube-proxy-nftables: created once, read and updated by later cutovers, deleted at the final hand-back. deploy/admission-policy.yaml pins the name RBAC cannot.',
  },
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['get', 'update', 'delete'],
    scope: 'kube-proxy-namespace',
    resourceNames: [CANARY_NAME],
    why: '… then read, update and delete it by name only.',
  },
];

const originalDaemonSet: Permission[] = [
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['get', 'patch'],
    scope: 'kube-proxy-namespace',
    resourceNames: [...ORIGINAL_DAEMONSET_NAMES],
    why: 'The original kube-proxy DaemonSet: OnDelete first (so the NotIn change restarts no pod), then the NotIn node-affinity term that keeps it off migrated nodes; both as JSON patches whose first operation tests the resourceVersion they were computed from.',
  },
];

const nodes: Permission[] = [
  {
    apiGroup: '',
    resource: 'nodes',
    verbs: ['get', 'patch'],
    scope: 'cluster',
    why: 'A cutover reads its node and patches the migration label (which moves the node between the two kube-proxy DaemonSets) and the run annotations on it. Nodes are cluster-scoped, and RBAC cannot restrict patch to one label, hence a ClusterRole.',
  },
];

const probePods: Permission[] = [
  {
    apiGroup: '',
    resource: 'pods',
    verbs: ['create', 'delete'],
    scope: 'probe-namespace',
    why: 'Probe pods: one short-lived host-network pod per node (NET_ADMIN and SYS_CHROOT, the host’s / mounted read-only to run its own nft), created and deleted again by the same run. Only in the probe namespace: pod create in kube-system would let the bot run as any of its ServiceAccounts.',
  },
];

/** The fleet probe: one DaemonSet per run, under one of a few fixed names (RBAC pins them). */
export const PROBE_DAEMONSET_NAMES = [
  'proxy-migrate-probe-0',
  'proxy-migrate-probe-1',
  'proxy-migrate-probe-2',
  'proxy-migrate-probe-3',
] as const;

const probeDaemonSet: Permission[] = [
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['create'],
    scope: 'probe-namespace',
    why: 'The fleet probe: from 20 nodes probed at once, one short-lived DaemonSet starts a probe pod on each of them (one create instead of one per node). Only in the probe namespace; RBAC cannot pin create to a name.',
  },
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['get', 'delete'],
    scope: 'probe-namespace',
    resourceNames: [...PROBE_DAEMONSET_NAMES],
    why: 'The fleet probe DaemonSet is read while its pods start and deleted with them when the run ends, under one of four fixed names.',
  },
];

const lease: Permission[] = [
  {
    apiGroup: 'coordination.k8s.io',
    resource: 'leases',
    verbs: ['create'],
    scope: 'kube-proxy-namespace',
    why: 'The cluster lock: one Lease, held by the run that mutates (renewed while it works), so two runs (or two bot deployments) never change one cluster at the same time.',
  },
  {
    apiGroup: 'coordination.k8s.io',
    resource: 'leases',
    verbs: ['get', 'update', 'delete'],
    scope: 'kube-proxy-namespace',
    resourceNames: [LOCK_LEASE_NAME],
    why: '… then read, renew and release it by name only.',
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
  {
    apiGroup: '',
    resource: 'nodes',
    verbs: ['list'],
    scope: 'cluster',
    why: 'Pre-flight lists nodes (paged, 500 at a time) to group them by pool and read kernel, kubelet version, addresses and readiness.',
  },
  {
    apiGroup: '',
    resource: 'services',
    verbs: ['list'],
    scope: 'cluster',
    why: 'NodePort and LoadBalancer Services decide whether nodePortAddresses matters, their count whether the nftables scale issue applies, and the verification calls a ClusterIP and a NodePort; read in every namespace.',
  },
  {
    apiGroup: 'discovery.k8s.io',
    resource: 'endpointslices',
    verbs: ['list'],
    scope: 'cluster',
    why: 'The verification calls a NodePort whose Service has ready endpoints.',
  },
  {
    apiGroup: '',
    resource: 'configmaps',
    verbs: ['list'],
    scope: 'cluster',
    why: 'ConfigMaps in every namespace are searched for callers of 127.0.0.1:<NodePort>, which nftables mode does not answer; kube-system’s hold kube-proxy’s and Cilium’s configuration.',
  },
  {
    apiGroup: '',
    resource: 'pods',
    verbs: ['list'],
    scope: 'cluster',
    why: 'Host-network pods are searched for loopback NodePort callers; the pods on a node are how a cutover sees the old kube-proxy go and the new one become Ready.',
  },
  {
    apiGroup: 'monitoring.coreos.com',
    resource: 'prometheusrules',
    verbs: ['list'],
    scope: 'cluster',
    why: 'Alert rules that use IPVS/iptables-only kube-proxy metrics go silent after the switch.',
  },
  {
    apiGroup: 'apps',
    resource: 'daemonsets',
    verbs: ['list'],
    scope: 'kube-proxy-namespace',
    why: 'Pre-flight finds the kube-proxy DaemonSet and reads its command line and volumes to learn where its configuration lives and which flags it passes (node-local-dns and Cilium too).',
  },
  {
    apiGroup: '',
    resource: 'configmaps',
    verbs: ['get'],
    scope: 'kube-proxy-namespace',
    why: 'kube-proxy’s configuration, whatever the distribution names its ConfigMap (kube-proxy, kube-proxy-config): the cluster-wide list above already shows it.',
  },
  {
    apiGroup: '',
    resource: 'pods/log',
    verbs: ['get'],
    scope: 'kube-proxy-namespace',
    why: 'kube-proxy’s log is evidence: "Using nftables Proxier", and no sync errors after it.',
  },
  {
    apiGroup: '',
    resource: 'pods',
    verbs: ['get', 'list'],
    scope: 'probe-namespace',
    why: 'A probe pod is watched until Running; a run lists the probe pods earlier runs left behind (a crashed bot) to remove them.',
  },
  {
    apiGroup: '',
    resource: 'pods/exec',
    verbs: ['create', 'get'],
    scope: 'probe-namespace',
    why: 'The probe reads the host through exec: uname, nft, ipvsadm, conntrack, sysctl, curl. WebSocket exec is authorised as `create` since Kubernetes 1.30 and as `get` before it.',
  },
];

/** Every distinct permission, in the order above: what the rendered RBAC grants, rule by rule. */
export function allPermissions(): Permission[] {
  const seen = new Set<Permission>();
  const out: Permission[] = [];
  for (const p of [...readPermissions, ...Object.values(actionPermissions).flat()]) {
    if (seen.has(p)) continue;
    seen.add(p);
    out.push(p);
  }
  return out;
}
