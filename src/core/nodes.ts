/** Facts about one node that every report shows, read from the Node object alone. */
import type { KubeNode } from './kube.js';

export function isReady(node: KubeNode): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function internalIP(node: KubeNode): string | undefined {
  const addresses = node.status?.addresses ?? [];
  return (
    addresses.find((a) => a.type === 'InternalIP')?.address ??
    addresses.find((a) => a.type === 'ExternalIP')?.address
  );
}

export interface NodeRow {
  name: string;
  pool: string;
  ready: boolean;
  schedulable: boolean;
  kernel: string;
  kubelet: string;
  osImage: string;
  internalIP: string;
}

export function nodeRow(node: KubeNode, pool: string): NodeRow {
  const info = node.status?.nodeInfo;
  return {
    name: node.metadata.name,
    pool,
    ready: isReady(node),
    schedulable: node.spec?.unschedulable !== true,
    kernel: info?.kernelVersion ?? 'unknown',
    kubelet: info?.kubeletVersion ?? 'unknown',
    osImage: info?.osImage ?? 'unknown',
    internalIP: internalIP(node) ?? 'none',
  };
}
