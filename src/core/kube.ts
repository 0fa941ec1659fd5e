/**
 * The subset of Kubernetes objects the product reads, shaped exactly as the API serves them (JSON
 * field names, timestamps as RFC 3339 strings). Adapters hand these to the core; the core never
 * sees an SDK type, so checks and views can be tested with plain fixtures.
 */

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: {
    apiVersion?: string;
    kind: string;
    name: string;
    uid?: string;
    controller?: boolean;
  }[];
}

export interface NodeAddress {
  type: string;
  address: string;
}

export interface NodeCondition {
  type: string;
  status: string;
  reason?: string;
}

export interface KubeNode {
  metadata: ObjectMeta;
  spec?: {
    providerID?: string;
    unschedulable?: boolean;
    taints?: { key: string; value?: string; effect: string }[];
  };
  status?: {
    addresses?: NodeAddress[];
    conditions?: NodeCondition[];
    nodeInfo?: {
      kernelVersion?: string;
      kubeletVersion?: string;
      kubeProxyVersion?: string;
      osImage?: string;
      containerRuntimeVersion?: string;
      architecture?: string;
      operatingSystem?: string;
    };
  };
}

export interface KubeConfigMap {
  metadata: ObjectMeta;
  data?: Record<string, string>;
}

export interface EnvVar {
  name: string;
  value?: string;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  subPath?: string;
  readOnly?: boolean;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  volumeMounts?: VolumeMount[];
}

export interface Volume {
  name: string;
  configMap?: { name: string; items?: { key: string; path: string }[] };
  hostPath?: { path: string; type?: string };
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: {
      nodeSelectorTerms: {
        matchExpressions?: NodeSelectorRequirement[];
        matchFields?: NodeSelectorRequirement[];
      }[];
    };
    preferredDuringSchedulingIgnoredDuringExecution?: unknown[];
  };
  [key: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  nodeSelector?: Record<string, string>;
  nodeName?: string;
  hostNetwork?: boolean;
  affinity?: Affinity;
  tolerations?: Record<string, unknown>[];
  [key: string]: unknown;
}

export interface KubeDaemonSet {
  metadata: ObjectMeta;
  spec?: {
    selector?: { matchLabels?: Record<string, string> };
    template?: { metadata?: Partial<ObjectMeta>; spec?: PodSpec };
    updateStrategy?: {
      type?: string;
      rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string };
    };
    [key: string]: unknown;
  };
  status?: {
    desiredNumberScheduled?: number;
    currentNumberScheduled?: number;
    numberReady?: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
  };
}

export interface ServicePort {
  name?: string;
  protocol?: string;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
}

export interface KubeService {
  metadata: ObjectMeta;
  spec?: {
    type?: string;
    clusterIP?: string;
    clusterIPs?: string[];
    ports?: ServicePort[];
    sessionAffinity?: string;
    externalTrafficPolicy?: string;
    externalIPs?: string[];
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

export interface ContainerStatus {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: {
    waiting?: { reason?: string };
    running?: { startedAt?: string };
    terminated?: { reason?: string; exitCode?: number };
  };
}

export interface KubePod {
  metadata: ObjectMeta;
  spec?: PodSpec;
  status?: {
    phase?: string;
    podIP?: string;
    hostIP?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: ContainerStatus[];
  };
}

/** coordination.k8s.io/v1 Lease: the cluster lock. Times are MicroTime (six fractional digits). */
export interface KubeLease {
  metadata: ObjectMeta;
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export interface PrometheusRule {
  metadata: ObjectMeta;
  spec?: {
    groups?: {
      name: string;
      rules?: { alert?: string; record?: string; expr?: string | number; for?: string }[];
    }[];
  };
}

/** discovery.k8s.io/v1 EndpointSlice: which Services have ready endpoints to call. */
export interface KubeEndpointSlice {
  metadata: ObjectMeta;
  addressType?: string;
  endpoints?: { addresses: string[]; conditions?: { ready?: boolean }; nodeName?: string }[];
  ports?: { name?: string; port?: number; protocol?: string }[];
}
