/**
 * Node pools: the unit people reason about ("pool legacy is on kernel 5.4"). Taken from the label
 * the cluster's config names, else the managed platforms' pool labels, else the control-plane
 * role, else the OS image and kernel line, so unlabelled fleets still group sensibly.
 */
import type { KubeNode } from './kube.js';
import { majorMinor, parseVersion } from './parse/version.js';

export const MANAGED_POOL_LABELS = [
  'eks.amazonaws.com/nodegroup',
  'kubernetes.azure.com/agentpool',
  'cloud.google.com/gke-nodepool',
] as const;

const CONTROL_PLANE_LABELS = [
  'node-role.kubernetes.io/control-plane',
  'node-role.kubernetes.io/master',
];

export function poolOf(node: KubeNode, poolLabel?: string): string {
  const labels = node.metadata.labels ?? {};
  for (const key of [poolLabel, ...MANAGED_POOL_LABELS]) {
    const value = key === undefined ? undefined : labels[key];
    if (value !== undefined && value !== '') return value;
  }
  if (CONTROL_PLANE_LABELS.some((key) => key in labels)) return 'control-plane';
  const info = node.status?.nodeInfo;
  const kernel = parseVersion(info?.kernelVersion ?? '');
  const os = info?.osImage?.trim() || 'unknown OS';
  return kernel === undefined ? os : `${os}, kernel ${majorMinor(kernel)}`;
}

export interface Pool {
  name: string;
  nodes: KubeNode[];
}

/** Pools sorted by name, nodes inside each sorted by name: stable output for reports. */
export function groupByPool(nodes: readonly KubeNode[], poolLabel?: string): Pool[] {
  const pools = new Map<string, KubeNode[]>();
  for (const node of nodes) {
    const name = poolOf(node, poolLabel);
    const members = pools.get(name);
    if (members) members.push(node);
    else pools.set(name, [node]);
  }
  return [...pools.entries()]
    .map(([name, members]) => ({
      name,
      nodes: members.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
