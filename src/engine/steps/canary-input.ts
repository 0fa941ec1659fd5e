/**
 * Reads what the canary plan is computed from, fresh each time (planning, the plan-unchanged
 * gate under the lock, applying): kube-proxy's DaemonSet and ConfigMap, the canary objects if
 * they exist, the run's node, and the oldest kernel among the nodes the canary may run on.
 */
import { KUBE_SYSTEM } from '../../core/cluster-overview.js';
import type { CanaryPlanInput } from '../../core/canary-plan.js';
import {
  findKubeProxyDaemonSet,
  kubeProxyContainer,
  parseFlags,
  resolveConfigSource,
} from '../../core/kube-proxy-config.js';
import { compareVersions, parseVersion } from '../../core/parse/version.js';
import { CANARY_NAME } from '../../core/permissions.js';
import type { ClusterPort } from '../../ports/cluster.js';

/** What a plan is read for: the cluster, the migration label, and the run's node if any. */
export interface PlanScope {
  cluster: ClusterPort;
  migrationLabel: string;
  node?: string;
  /** The node pre-flight's `uname -r`, which beats the Node object's kernelVersion. */
  nodeKernel?: string;
}

function oldest(kernels: readonly (string | undefined)[]): string | undefined {
  let found: { raw: string; v: NonNullable<ReturnType<typeof parseVersion>> } | undefined;
  for (const raw of kernels) {
    const v = parseVersion(raw ?? '');
    if (raw === undefined || v === undefined) return undefined;
    if (found === undefined || compareVersions(v, found.v) < 0) found = { raw, v };
  }
  return found?.raw;
}

export type CanaryRead = { ok: true; input: CanaryPlanInput } | { ok: false; problem: string };

export async function readCanaryInput(scope: PlanScope): Promise<CanaryRead> {
  const { cluster } = scope;
  const daemonSets = await cluster.listDaemonSets(KUBE_SYSTEM);
  const original = findKubeProxyDaemonSet(daemonSets);
  if (original === undefined)
    return { ok: false, problem: `no kube-proxy DaemonSet in ${KUBE_SYSTEM}` };
  const container = kubeProxyContainer(original);
  const flags = parseFlags([...(container?.command ?? []), ...(container?.args ?? [])]);
  const source =
    container === undefined ? undefined : resolveConfigSource(original, container, flags);
  const configMap =
    source?.kind === 'configmap'
      ? await cluster.getConfigMap(KUBE_SYSTEM, source.configMap)
      : undefined;
  const [canaryConfigMap, canaryDaemonSet, nodes] = await Promise.all([
    cluster.getConfigMap(KUBE_SYSTEM, CANARY_NAME),
    cluster.getDaemonSet(KUBE_SYSTEM, CANARY_NAME),
    cluster.listNodes(),
  ]);
  const target = nodes.filter((n) => n.metadata.name === scope.node);
  if (scope.node !== undefined && target.length === 0) {
    return { ok: false, problem: `node ${scope.node} does not exist in cluster ${cluster.name}` };
  }
  // The node pre-flight's `uname -r` beats the Node object: a rebooted-into-old kernel lies there.
  const kernels = nodes.map((n) =>
    n.metadata.name === scope.node && scope.nodeKernel !== undefined
      ? scope.nodeKernel
      : n.status?.nodeInfo?.kernelVersion,
  );
  return {
    ok: true,
    input: {
      original,
      ...(configMap === undefined ? {} : { configMap }),
      canaryConfigMap: canaryConfigMap ?? null,
      canaryDaemonSet: canaryDaemonSet ?? null,
      migrationLabel: scope.migrationLabel,
      oldestKernel: oldest(kernels),
      nodes: target,
    },
  };
}
