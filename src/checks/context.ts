/** Builds the {@link CheckContext} once per report, so every check reads the same derived facts. */
import { kubeProxyOverview } from '../core/cluster-overview.js';
import { parseVersion } from '../core/parse/version.js';
import { detectPlatform } from '../core/platform.js';
import { groupByPool } from '../core/pools.js';
import type { ClusterSnapshot, NodeFacts } from '../core/snapshot.js';
import type { CheckContext } from './types.js';

export function buildCheckContext(snapshot: ClusterSnapshot, poolLabel?: string): CheckContext {
  const pools = groupByPool(snapshot.nodes, poolLabel);
  const poolByNode = new Map<string, string>();
  for (const pool of pools)
    for (const node of pool.nodes) poolByNode.set(node.metadata.name, pool.name);
  const facts = new Map<string, NodeFacts>(snapshot.nodeFacts.map((f) => [f.node, f]));
  return {
    snapshot,
    pools,
    poolOf: (name) => poolByNode.get(name) ?? 'unknown',
    kubeProxy: kubeProxyOverview(snapshot),
    version: parseVersion(snapshot.kubernetesVersion),
    platform: detectPlatform(snapshot),
    factsOf: (name) => facts.get(name),
  };
}
