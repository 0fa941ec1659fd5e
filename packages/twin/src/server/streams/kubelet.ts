// The apiserver's leg to the node's kubelet for pods/exec and pods/log: the kubelet's address
// (kubeadm's --kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname; port 10250), the
// URL it is asked (pkg/registry/core/pod/strategy.go streamLocation/LogLocation, Go's sorted
// url.Values encoding), the dial error when the kubelet does not answer, and the kubelet's own
// refusal of a container it does not run (pkg/kubelet/kubelet_pods.go GetExec: findContainer
// looks at running containers only).

import { ApiError } from '../../apimachinery/errors.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';
import { resourceFor } from '../../registry/resources.js';
import type { ObjectStore } from '../../store/store.js';

/** What the twin's kubelets can say about themselves; startTwin wires the controllers in. */
export interface KubeletView {
  /** Whether the node's kubelet answers (the kubelet-down host fault stops it). */
  up(node: string): boolean;
  /** Whether the runtime runs the container; undefined lets the pod's status decide. */
  running(pod: KubeObject, container: string): boolean | undefined;
}

export const kubeletPort = 10250;

export type KubeletRefusal =
  | { readonly kind: 'unreachable'; readonly host: string }
  | { readonly kind: 'no-container'; readonly container: string };

/** The node address the apiserver dials, in kubeadm's preference order. */
export function kubeletHost(store: ObjectStore, nodeName: string): string {
  const node = store.get(resourceFor('nodes'), undefined, nodeName);
  const addresses = asArray(asRecord(node?.['status'])['addresses']).filter(isJsonObject);
  for (const type of ['InternalIP', 'ExternalIP', 'Hostname']) {
    const hit = addresses.find((a) => a['type'] === type);
    if (hit) return asString(hit['address']);
  }
  return nodeName;
}

/** Go's url.QueryEscape: only letters, digits and -_.~ stay; a space becomes '+'. */
function queryEscape(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** url.Values.Encode: keys sorted, each key's values in order. */
export function encodeValues(values: readonly (readonly [string, string])[]): string {
  const keys = [...new Set(values.map(([k]) => k))].sort();
  return keys
    .flatMap((k) =>
      values.filter(([key]) => key === k).map(([, v]) => `${queryEscape(k)}=${queryEscape(v)}`),
    )
    .join('&');
}

export function kubeletURL(host: string, path: string, query: string): string {
  const authority = host.includes(':') ? `[${host}]:${kubeletPort}` : `${host}:${kubeletPort}`;
  return `https://${authority}${path}${query === '' ? '' : `?${query}`}`;
}

/** A connect to a stopped kubelet: the host is up, nothing listens on 10250. */
export function dialError(host: string): string {
  const authority = host.includes(':') ? `[${host}]:${kubeletPort}` : `${host}:${kubeletPort}`;
  return `dial tcp ${authority}: connect: connection refused`;
}

function statusRunning(pod: KubeObject, container: string): boolean {
  const status = asRecord(pod['status']);
  const statuses = [
    ...asArray(status['containerStatuses']),
    ...asArray(status['initContainerStatuses']),
    ...asArray(status['ephemeralContainerStatuses']),
  ].filter(isJsonObject);
  const own: JsonObject | undefined = statuses.find((s) => s['name'] === container);
  // A scenario pod is Running by contract even when it lists no container statuses.
  if (!own) return statuses.length === 0 && status['phase'] === 'Running';
  return asRecord(own['state'])['running'] !== undefined;
}

/** Why the kubelet side refuses a stream into this container, if it does. */
export function kubeletRefusal(
  store: ObjectStore,
  view: KubeletView | undefined,
  pod: KubeObject,
  container: string,
): KubeletRefusal | undefined {
  const node = asString(asRecord(pod['spec'])['nodeName']);
  if (view && !view.up(node)) return { kind: 'unreachable', host: kubeletHost(store, node) };
  const running = view?.running(pod, container) ?? statusRunning(pod, container);
  return running ? undefined : { kind: 'no-container', container };
}

/** A Status for an error that is no metav1.Status (ErrorToAPIStatus): code 500, no reason. */
export class UnknownStatusError extends ApiError {
  constructor(message: string) {
    super(500, 'InternalError', message);
  }

  override toStatus(): JsonObject {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      code: 500,
    };
  }
}
