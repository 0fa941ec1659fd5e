/**
 * Reads what pre-flight needs from one cluster: every list in parallel and paged (never one GET
 * per node), so the request count grows with pages, not with nodes; then the node probes, which
 * are per node by nature and bounded per node rather than as a whole.
 */
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { withDeadline } from '../core/deadline.js';
import { hostNetworkPodKeeper } from '../core/host-network-pods.js';
import type { ClusterSnapshot, NodeFacts } from '../core/snapshot.js';
import { AppError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterPort, ListProgress } from '../ports/cluster.js';

export interface GatherOptions {
  /** Deadline for the cluster-wide lists (node probes have their own per-node deadlines). */
  listDeadlineMs: number;
  onNodeProgress?: ListProgress;
  /** Reads each node's host facts; absent means no node probing (API-only report). */
  probeNodes?: (nodes: ClusterSnapshot['nodes']) => Promise<NodeFacts[]>;
}

export async function gatherSnapshot(
  cluster: ClusterPort,
  clock: Clock,
  options: GatherOptions,
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
  ] = await withDeadline(
    Promise.all([
      cluster.serverVersion(),
      cluster.listNodes(options.onNodeProgress),
      cluster.listServices(),
      cluster.listDaemonSets(KUBE_SYSTEM),
      cluster.listConfigMaps(),
      cluster.listPods('spec.hostNetwork=true', hostNetworkPodKeeper()),
      cluster.listPrometheusRules(),
    ]),
    options.listDeadlineMs,
    () =>
      new AppError(
        'K8S_TIMEOUT',
        `Cluster ${cluster.name}: reading the cluster took longer than ${options.listDeadlineMs / 1000} s.`,
        { remedy: 'Check the API server’s load and latency; the bot retries.', retryable: true },
      ),
  );
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
