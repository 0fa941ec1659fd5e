/**
 * ClusterPort: every read and write the product makes against one cluster's API. Adapters
 * implement it over @kubernetes/client-node; lists are complete (all pages) and every call has
 * a deadline, so callers never page or time out by hand.
 */
import type { ClusterAction } from '../core/actions.js';
import type {
  KubeConfigMap,
  KubeDaemonSet,
  KubeEndpointSlice,
  KubeLease,
  KubeNode,
  KubePod,
  KubeService,
  PrometheusRule,
} from '../core/kube.js';
import type { NodeShell } from './node-shell.js';

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
  /** Services in every namespace. */
  listServices(): Promise<KubeService[]>;
  /** ConfigMaps in one namespace, or in every namespace when none is given. */
  listConfigMaps(namespace?: string): Promise<KubeConfigMap[]>;
  /**
   * Pods in every namespace matching a field selector such as `spec.hostNetwork=true`. `keep`
   * sees each pod as its page arrives and returns what to keep of it (undefined drops it), so
   * 5,000 copies of a DaemonSet's pod never have to be held at once.
   */
  listPods(fieldSelector: string, keep?: (pod: KubePod) => KubePod | undefined): Promise<KubePod[]>;
  /** PrometheusRules in every namespace; undefined when the CRD is not installed. */
  listPrometheusRules(): Promise<PrometheusRule[] | undefined>;
  /** The ConfigMap, or undefined when it does not exist. */
  getConfigMap(namespace: string, name: string): Promise<KubeConfigMap | undefined>;
  getDaemonSet(namespace: string, name: string): Promise<KubeDaemonSet | undefined>;
  getNode(name: string): Promise<KubeNode | undefined>;
  /** EndpointSlices in every namespace (which Services have ready endpoints). */
  listEndpointSlices(): Promise<KubeEndpointSlice[]>;
  /** Pods bound to one node, in every namespace (field selector spec.nodeName). */
  listPodsOnNode(node: string): Promise<KubePod[]>;
  /** The last lines a container logged (kube-proxy's, for the proxier and sync errors). */
  podLog(namespace: string, pod: string, container: string, tailLines: number): Promise<string>;
  getLease(namespace: string, name: string): Promise<KubeLease | undefined>;
  /**
   * The only write: applies one action, having read the live object first. `unchanged` when
   * the cluster already had what the action asks for (so re-running a step writes nothing);
   * `dryRun` sends it with dryRun=All, so the API server validates it and persists nothing.
   * Throws K8S_CONFLICT when the object changed since the action was computed.
   */
  apply(action: ClusterAction, options?: ApplyOptions): Promise<ApplyResult>;
}

export interface ApplyOptions {
  dryRun?: boolean;
}

export interface ApplyResult {
  status: 'applied' | 'unchanged';
  /** The object's resourceVersion after the write (the live one when unchanged). */
  resourceVersion?: string;
}

/** Hands out one ClusterPort per configured cluster, and node shells for its runs. */
export interface ClusterDirectory {
  get(clusterName: string): ClusterPort;
  /** A NodeShell for one run on the cluster; the caller closes it when the run ends. */
  nodeShell(clusterName: string, runId: string): NodeShell;
  /**
   * Deletes the cluster's probe pods whose run `keep` does not keep (a run that ended, or waits
   * for a person, while its process was killed); resolves to how many it deleted.
   */
  collectProbePods(clusterName: string, keep: (runId: string) => Promise<boolean>): Promise<number>;
}
