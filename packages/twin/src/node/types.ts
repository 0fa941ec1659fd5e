// What ClusterDataplane (index.ts) takes and returns: its options, a kube-proxy start's outcome
// as the kubelet needs it, and where an exec runs.

import type { HostSpec, ImageSpec } from '../scenario/schema.js';
import type { ContainerContext } from './container/context.js';
import type { ProxyEvent, ProxyPhase } from './kube-proxy/kube-proxy.js';

export interface ClusterDataplaneOptions {
  /** The cluster's version; a kube-proxy image tag (`:v1.32.1`) overrides it for that pod. */
  readonly kubernetesVersion: string;
  readonly hosts?: readonly HostSpec[];
  /** Scenario `spec.images`: the nft and tools of each image, for exec into its containers. */
  readonly images?: readonly ImageSpec[];
}

export interface PodStartResult {
  /** True while the container keeps running (kube-proxy started and synced). */
  readonly running: boolean;
  readonly phase: ProxyPhase;
  readonly exitCode: number | undefined;
  /** Container termination reason as the kubelet reports it. */
  readonly reason: 'Error' | 'Completed' | undefined;
  /** The error kube-proxy exited with (for the termination message). */
  readonly message: string | undefined;
  readonly logs: readonly string[];
  /** Events kube-proxy records against its Node (e.g. Warning IPVSDeprecation from v1.35). */
  readonly events: readonly ProxyEvent[];
}

export interface ExecOptions {
  /**
   * The pod uses the host's network namespace (kube-proxy and probe pods do). Default: the
   * container's (host network without a container).
   */
  readonly hostNetwork?: boolean;
  /** The container the command runs in (image, capabilities, namespaces); default: the host. */
  readonly container?: ContainerContext;
}
