/** Builds the {@link CheckContext} once per report, so every check reads the same derived facts. */
import { kubeProxyOverview, locateKubeProxy } from '../core/cluster-overview.js';
import { imageTagVersion } from '../core/parse/image-tag.js';
import { parseVersion, type Version } from '../core/parse/version.js';
import { detectPlatform } from '../core/platform.js';
import { groupByPool } from '../core/pools.js';
import type { ClusterSnapshot, NodeFacts } from '../core/snapshot.js';
import type { CheckContext, KubeProxyVersion } from './types.js';

/** The cluster version stands in for an untagged image: the version skew policy keeps them close. */
function kubeProxyVersionOf(
  image: string | undefined,
  cluster: Version | undefined,
): KubeProxyVersion | undefined {
  const tagged = image === undefined ? undefined : imageTagVersion(image);
  if (image !== undefined && tagged !== undefined) {
    return { version: tagged, from: 'image', evidence: `image ${image}` };
  }
  if (cluster === undefined) return undefined;
  return {
    version: cluster,
    from: 'cluster',
    evidence: `cluster version ${cluster.raw}, as the kube-proxy image tag ${
      image === undefined ? 'is not available' : `of ${image} is not a version`
    }`,
  };
}

export function buildCheckContext(snapshot: ClusterSnapshot, poolLabel?: string): CheckContext {
  const pools = groupByPool(snapshot.nodes, poolLabel);
  const poolByNode = new Map<string, string>();
  for (const pool of pools)
    for (const node of pool.nodes) poolByNode.set(node.metadata.name, pool.name);
  const facts = new Map<string, NodeFacts>(snapshot.nodeFacts.map((f) => [f.node, f]));
  const kubeProxy = kubeProxyOverview(snapshot);
  const version = parseVersion(snapshot.kubernetesVersion);
  return {
    snapshot,
    pools,
    poolOf: (name) => poolByNode.get(name) ?? 'unknown',
    kubeProxy,
    kubeProxyFlags: locateKubeProxy(snapshot.kubeSystemDaemonSets)?.flags ?? new Map(),
    kubeProxyVersion: kubeProxyVersionOf(kubeProxy.image, version),
    version,
    platform: detectPlatform(snapshot),
    factsOf: (name) => facts.get(name),
  };
}
