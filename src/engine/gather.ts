/**
 * Reads what a report needs from one cluster: cluster-wide lists in parallel (paged, never one
 * GET per node), then the ConfigMap kube-proxy's `--config` points at.
 */
import { KUBE_SYSTEM, locateKubeProxy, type ClusterSnapshot } from '../core/cluster-overview.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterPort } from '../ports/cluster.js';

export async function gatherSnapshot(cluster: ClusterPort, clock: Clock): Promise<ClusterSnapshot> {
  const startedAt = clock.now().toISOString();
  const [kubernetesVersion, nodes, kubeSystemDaemonSets] = await Promise.all([
    cluster.serverVersion(),
    cluster.listNodes(),
    cluster.listDaemonSets(KUBE_SYSTEM),
  ]);
  const source = locateKubeProxy(kubeSystemDaemonSets)?.source;
  const kubeProxyConfigMap =
    source?.kind === 'configmap'
      ? await cluster.getConfigMap(KUBE_SYSTEM, source.configMap)
      : undefined;
  return {
    cluster: cluster.name,
    kubernetesVersion,
    nodes,
    kubeSystemDaemonSets,
    ...(kubeProxyConfigMap === undefined ? {} : { kubeProxyConfigMap }),
    startedAt,
    finishedAt: clock.now().toISOString(),
  };
}
