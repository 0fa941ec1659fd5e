/**
 * Which platform runs the cluster, from what the API shows: providerIDs, node labels, kubelet
 * version suffixes and how kube-proxy is packaged (reference/kube-proxy-facts.md §3, §12).
 * Managed platforms get guidance, never blind mutation, so being wrong towards "managed" is safe.
 */
import type { KubeConfigMap, KubeDaemonSet, KubeNode } from './kube.js';

export const platformKinds = ['eks', 'aks', 'gke', 'rke2', 'k3s', 'kubeadm', 'unknown'] as const;
export type PlatformKind = (typeof platformKinds)[number];

export interface Platform {
  kind: PlatformKind;
  /** Human name, e.g. "Amazon EKS". */
  name: string;
  /** Whether the provider manages kube-proxy (add-on or reconciler) so edits may be reverted. */
  managed: boolean;
  /** What gave it away, e.g. `providerID aws:///us-east-1a/i-0abc`. */
  evidence: string[];
}

const names: Record<PlatformKind, string> = {
  eks: 'Amazon EKS',
  aks: 'Azure AKS',
  gke: 'Google GKE',
  rke2: 'RKE2',
  k3s: 'k3s',
  kubeadm: 'kubeadm',
  unknown: 'unknown platform',
};

interface Inputs {
  nodes: readonly KubeNode[];
  kubeSystemDaemonSets: readonly KubeDaemonSet[];
  kubeSystemConfigMaps: readonly KubeConfigMap[];
}

function firstNode(
  nodes: readonly KubeNode[],
  test: (n: KubeNode) => boolean,
): KubeNode | undefined {
  return nodes.find(test);
}

export function detectPlatform(inputs: Inputs): Platform {
  const { nodes } = inputs;
  const found = (kind: PlatformKind, managed: boolean, evidence: string[]): Platform => ({
    kind,
    name: names[kind],
    managed,
    evidence,
  });
  const label = (key: string) => firstNode(nodes, (n) => n.metadata.labels?.[key] !== undefined);
  const provider = (prefix: string) =>
    firstNode(nodes, (n) => n.spec?.providerID?.startsWith(prefix) ?? false);
  const kubelet = (pattern: RegExp) =>
    firstNode(nodes, (n) => pattern.test(n.status?.nodeInfo?.kubeletVersion ?? ''));

  const eks = label('eks.amazonaws.com/nodegroup') ?? kubelet(/-eks-/);
  const eksAddon = inputs.kubeSystemDaemonSets.some(
    (ds) => ds.metadata.labels?.['eks.amazonaws.com/component'] === 'kube-proxy',
  );
  if (eks !== undefined || eksAddon) {
    return found('eks', true, [
      eks === undefined
        ? 'kube-proxy DaemonSet labelled eks.amazonaws.com/component'
        : `node ${eks.metadata.name}: ${eks.metadata.labels?.['eks.amazonaws.com/nodegroup'] === undefined ? `kubelet ${eks.status?.nodeInfo?.kubeletVersion ?? ''}` : 'label eks.amazonaws.com/nodegroup'}`,
    ]);
  }
  const aks = label('kubernetes.azure.com/cluster') ?? label('kubernetes.azure.com/agentpool');
  if (aks !== undefined)
    return found('aks', true, [`node ${aks.metadata.name}: kubernetes.azure.com labels`]);
  const gke = label('cloud.google.com/gke-nodepool') ?? kubelet(/-gke\./);
  if (gke !== undefined)
    return found('gke', true, [`node ${gke.metadata.name}: GKE node pool label or kubelet`]);
  const rke2 = kubelet(/\+rke2/);
  if (rke2 !== undefined)
    return found('rke2', false, [
      `node ${rke2.metadata.name}: kubelet ${rke2.status?.nodeInfo?.kubeletVersion ?? ''}`,
    ]);
  const k3s = kubelet(/\+k3s/);
  if (k3s !== undefined)
    return found('k3s', false, [
      `node ${k3s.metadata.name}: kubelet ${k3s.status?.nodeInfo?.kubeletVersion ?? ''}`,
    ]);
  const kubeadmConfig = inputs.kubeSystemConfigMaps.find(
    (cm) =>
      cm.metadata.name === 'kubeadm-config' ||
      (cm.metadata.name === 'kube-proxy' && cm.data?.['config.conf'] !== undefined),
  );
  if (kubeadmConfig !== undefined)
    return found('kubeadm', false, [`ConfigMap kube-system/${kubeadmConfig.metadata.name}`]);
  const cloud = provider('aws://') ?? provider('azure://') ?? provider('gce://');
  return found(
    'unknown',
    false,
    cloud === undefined ? [] : [`providerID ${cloud.spec?.providerID ?? ''} (self-managed)`],
  );
}
