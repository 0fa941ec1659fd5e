/**
 * Reads what pre-flight needs from one cluster: every list in parallel and paged (never one GET
 * per node), so the request count grows with pages, not with nodes.
 */
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import type { ClusterSnapshot, NodeFacts } from '../core/snapshot.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterPort, ListProgress } from '../ports/cluster.js';

export interface GatherOptions {
  onNodeProgress?: ListProgress;
  /** Reads each node's host facts; absent means no node probing (API-only report). */
  probeNodes?: (nodes: ClusterSnapshot['nodes']) => Promise<NodeFacts[]>;
}

export async function gatherSnapshot(
  cluster: ClusterPort,
  clock: Clock,
  options: GatherOptions = {},
): Promise<ClusterSnapshot> {
  const startedAt = clock.now().toISOString();
  const [
    kubernetesVersion,
    nodes,
    services,
    kubeSystemDaemonSets,
    configMaps,
    hostNetworkPods,
    prometheusRules,
  ] = await Promise.all([
    cluster.serverVersion(),
    cluster.listNodes(options.onNodeProgress),
    cluster.listServices(),
    cluster.listDaemonSets(KUBE_SYSTEM),
    cluster.listConfigMaps(),
    cluster.listPods('spec.hostNetwork=true'),
    cluster.listPrometheusRules(),
  ]);
  const nodeFacts = options.probeNodes === undefined ? [] : await options.probeNodes(nodes);
  return {
    cluster: cluster.name,
    kubernetesVersion,
    nodes,
    services,
    kubeSystemDaemonSets,
    kubeSystemConfigMaps: configMaps.filter((cm) => cm.metadata.namespace === KUBE_SYSTEM),
    configMaps,
    hostNetworkPods,
    ...(prometheusRules === undefined ? {} : { prometheusRules }),
    nodeFacts,
    startedAt,
    finishedAt: clock.now().toISOString(),
  };
}
