/**
 * What a cluster looks like from the API: version, nodes by pool and kube-proxy's configured
 * mode. Built from a snapshot the engine gathers; every report starts from this.
 */
import type { KubeDaemonSet } from './kube.js';
import {
  findKubeProxyDaemonSet,
  kubeProxyContainer,
  parseFlags,
  parseKubeProxyConfiguration,
  resolveConfigSource,
  resolveMode,
  type ConfigSource,
  type KubeProxyConfiguration,
  type ModeResolution,
} from './kube-proxy-config.js';
import { groupByPool } from './pools.js';
import type { ClusterSnapshot } from './snapshot.js';
import { isReady, nodeRow, type NodeRow } from './nodes.js';

/** Namespace kube-proxy lives in on every distribution the product supports. */
export const KUBE_SYSTEM = 'kube-system';

export interface KubeProxyLocation {
  daemonSet: KubeDaemonSet;
  flags: Map<string, string>;
  source: ConfigSource;
}

/** Finds kube-proxy's DaemonSet and where its configuration lives; the engine reads that next. */
export function locateKubeProxy(
  daemonSets: readonly KubeDaemonSet[],
): KubeProxyLocation | undefined {
  const daemonSet = findKubeProxyDaemonSet(daemonSets);
  if (daemonSet === undefined) return undefined;
  const container = kubeProxyContainer(daemonSet);
  if (container === undefined) return undefined;
  const flags = parseFlags([...(container.command ?? []), ...(container.args ?? [])]);
  return { daemonSet, flags, source: resolveConfigSource(daemonSet, container, flags) };
}

export interface KubeProxyOverview {
  daemonSet?: string;
  image?: string;
  source?: ConfigSource;
  config?: KubeProxyConfiguration;
  mode?: ModeResolution;
  /** Why the mode could not be read, in one sentence; absent when it could. */
  problem?: string;
}

export function kubeProxyOverview(snapshot: ClusterSnapshot): KubeProxyOverview {
  const location = locateKubeProxy(snapshot.kubeSystemDaemonSets);
  if (location === undefined) {
    return { problem: `no kube-proxy DaemonSet found in ${KUBE_SYSTEM}` };
  }
  const { daemonSet, flags, source } = location;
  const image = kubeProxyContainer(daemonSet)?.image;
  const base = {
    daemonSet: daemonSet.metadata.name,
    source,
    ...(image === undefined ? {} : { image }),
  };
  switch (source.kind) {
    case 'flags':
      return { ...base, mode: resolveMode(flags, undefined) };
    case 'unresolved':
      return { ...base, problem: source.reason };
    case 'configmap': {
      const configMap = snapshot.kubeSystemConfigMaps.find(
        (cm) => cm.metadata.name === source.configMap,
      );
      const text = configMap?.data?.[source.key];
      if (configMap === undefined) {
        return { ...base, problem: `ConfigMap ${KUBE_SYSTEM}/${source.configMap} does not exist` };
      }
      if (text === undefined) {
        return {
          ...base,
          problem: `ConfigMap ${KUBE_SYSTEM}/${source.configMap} has no key "${source.key}"`,
        };
      }
      const parsed = parseKubeProxyConfiguration(text);
      if (!parsed.ok) {
        return { ...base, problem: `${source.configMap}/${source.key} is ${parsed.error}` };
      }
      return { ...base, config: parsed.config, mode: resolveMode(flags, parsed.config) };
    }
  }
}

export interface PoolSummary {
  name: string;
  nodes: number;
  ready: number;
}

export interface ClusterOverview {
  cluster: string;
  kubernetesVersion: string;
  nodes: NodeRow[];
  pools: PoolSummary[];
  readyNodes: number;
  kubeProxy: KubeProxyOverview;
  startedAt: string;
  durationMs: number;
}

export function overview(snapshot: ClusterSnapshot, poolLabel?: string): ClusterOverview {
  const pools = groupByPool(snapshot.nodes, poolLabel);
  const nodes = pools.flatMap((pool) => pool.nodes.map((node) => nodeRow(node, pool.name)));
  return {
    cluster: snapshot.cluster,
    kubernetesVersion: snapshot.kubernetesVersion,
    nodes,
    pools: pools.map((pool) => ({
      name: pool.name,
      nodes: pool.nodes.length,
      ready: pool.nodes.filter(isReady).length,
    })),
    readyNodes: nodes.filter((n) => n.ready).length,
    kubeProxy: kubeProxyOverview(snapshot),
    startedAt: snapshot.startedAt,
    durationMs: Date.parse(snapshot.finishedAt) - Date.parse(snapshot.startedAt),
  };
}
