/**
 * ClusterPort: every read and write the product makes against one cluster's API. Adapters
 * implement it over @kubernetes/client-node; lists are complete (all pages) and every call has
 * a deadline, so callers never page or time out by hand.
 */
import type { KubeConfigMap, KubeDaemonSet, KubeNode } from '../core/kube.js';

export interface ListProgress {
  /** Items received so far and pages fetched, for progress reports on big clusters. */
  (received: number, pages: number): void;
}

export interface ClusterPort {
  /** The name from the clusters file, used in every message and log line. */
  readonly name: string;
  /** `gitVersion` from /version, e.g. `v1.33.4`. */
  serverVersion(): Promise<string>;
  /** All nodes, fetched in pages of 500. */
  listNodes(onProgress?: ListProgress): Promise<KubeNode[]>;
  listDaemonSets(namespace: string): Promise<KubeDaemonSet[]>;
  /** The ConfigMap, or undefined when it does not exist. */
  getConfigMap(namespace: string, name: string): Promise<KubeConfigMap | undefined>;
}

/** Hands out one ClusterPort per configured cluster. */
export interface ClusterDirectory {
  get(clusterName: string): ClusterPort;
}
