/**
 * What every check receives: the snapshot plus the facts derived from it once (pools, kube-proxy's
 * configuration and mode, the platform, the parsed cluster version), so checks stay small.
 */
import type { KubeProxyOverview } from '../core/cluster-overview.js';
import type { Finding } from '../core/findings.js';
import type { Version } from '../core/parse/version.js';
import type { Platform } from '../core/platform.js';
import type { Pool } from '../core/pools.js';
import type { ClusterSnapshot, NodeFacts } from '../core/snapshot.js';

export interface CheckContext {
  snapshot: ClusterSnapshot;
  pools: Pool[];
  /** The pool a node belongs to. */
  poolOf(nodeName: string): string;
  kubeProxy: KubeProxyOverview;
  /** Parsed `/version`; undefined when it could not be parsed. */
  version: Version | undefined;
  platform: Platform;
  /** What the node probe saw on a node; undefined when it was not probed. */
  factsOf(nodeName: string): NodeFacts | undefined;
}

export interface Check {
  /** Public id: reports name it and users suppress findings by it. */
  id: string;
  title: string;
  /** Findings about the cluster, its pools and nodes; empty means nothing found (a pass). */
  run(ctx: CheckContext): Finding[];
}
