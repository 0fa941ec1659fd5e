/**
 * Everything pre-flight reads from one cluster, in the API's JSON shape, plus what the node
 * probes saw on each host. Checks are pure functions over this; the engine fills it in.
 */
import type {
  KubeConfigMap,
  KubeDaemonSet,
  KubeNode,
  KubePod,
  KubeService,
  PrometheusRule,
} from './kube.js';
import type { HostAddress } from './host-addresses.js';
import type { ProbeCoverage } from './probe-selection.js';

/** Host facts read on a node through its probe pod; absent fields were not readable. */
export interface NodeFacts {
  node: string;
  /** `uname -r` on the host: the kernel actually running. */
  kernel?: string;
  /** Host nft version, e.g. `1.0.6`, from `nft --version`. */
  nftVersion?: string;
  /**
   * The host has no nft at all (`nft --version` on the host: command not found). An answer, not an
   * unknown: kube-proxy runs the nft in its own image, so such a host (Bottlerocket, minimal
   * images) needs nothing installed (shared/reference/preflight-factcheck.md #21).
   */
  hostNftMissing?: true;
  conntrack?: {
    count?: number;
    max?: number;
    /** `invalid=` per CPU from `conntrack -S`. */
    invalidPerCpu: number[];
  };
  /** What kube-proxy on the node says it runs, from its metrics port's /proxyMode. */
  proxyMode?: string;
  /**
   * The host's own addresses from `ip -j addr` (loopback, link-local, kube-ipvs0 and CNI
   * interfaces left out): where IPVS answers NodePorts today.
   */
  addresses?: HostAddress[];
  /** Probes that failed on this node, each with the error code and message. */
  errors: { probe: string; code: string; message: string }[];
}

export interface ClusterSnapshot {
  cluster: string;
  kubernetesVersion: string;
  nodes: KubeNode[];
  services: KubeService[];
  kubeSystemDaemonSets: KubeDaemonSet[];
  /** kube-system ConfigMaps: kube-proxy's, cilium-config, node-local-dns and friends. */
  kubeSystemConfigMaps: KubeConfigMap[];
  /** ConfigMaps in every namespace, for configuration that calls loopback NodePorts. */
  configMaps: KubeConfigMap[];
  /** Pods with `spec.hostNetwork: true`, in every namespace. */
  hostNetworkPods: KubePod[];
  /** Undefined when the PrometheusRule CRD is not installed. */
  prometheusRules?: PrometheusRule[];
  /** One entry per probed node; empty when node probing was skipped. */
  nodeFacts: NodeFacts[];
  /**
   * What the fleet pre-flight chose to probe; absent for a node pre-flight (which probes its
   * node only, on purpose) and for snapshots built by hand.
   */
  probing?: ProbeCoverage;
  startedAt: string;
  finishedAt: string;
}
