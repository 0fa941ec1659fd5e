/**
 * What every check receives: the snapshot plus the facts derived from it once (pools, kube-proxy's
 * configuration, flags, mode and version, the platform, the parsed cluster version), so checks stay
 * small and agree with each other.
 */
import type { KubeProxyOverview } from '../core/cluster-overview.js';
import type { Finding } from '../core/findings.js';
import type { Version } from '../core/parse/version.js';
import type { Platform } from '../core/platform.js';
import type { Pool } from '../core/pools.js';
import type { ClusterSnapshot, NodeFacts } from '../core/snapshot.js';

/** kube-proxy's own version, which decides its behaviour and can lag the control plane's. */
export interface KubeProxyVersion {
  version: Version;
  /** `image`: the DaemonSet's image tag; `cluster`: the API server's /version as a stand-in. */
  from: 'image' | 'cluster';
  /** One phrase saying where the version was read, for details. */
  evidence: string;
}

export interface CheckContext {
  snapshot: ClusterSnapshot;
  pools: Pool[];
  /** The pool a node belongs to. */
  poolOf(nodeName: string): string;
  kubeProxy: KubeProxyOverview;
  /** The kube-proxy container's flags; empty without a kube-proxy DaemonSet. */
  kubeProxyFlags: ReadonlyMap<string, string>;
  /** The image tag when it parses, else the cluster version; undefined when neither does. */
  kubeProxyVersion: KubeProxyVersion | undefined;
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
