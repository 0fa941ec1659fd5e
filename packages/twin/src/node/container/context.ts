// The container a `kubectl exec` runs in, as the process inside sees it: its image's binaries
// (nft version, which tools), its capabilities, whether it shares the host's PID and network
// namespaces, and where the host's root filesystem is mounted (hostPath "/"), which is what lets
// `chroot /host …` or `nsenter -t 1 -m …` reach the host's own tools.

import type { ImageSpec } from '../../scenario/schema.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';
import { containerCapabilities } from './capabilities.js';
import { DEFAULT_IMAGE_NFT, imageContents } from './images.js';

export interface ContainerContext {
  readonly image: string;
  /** The nft the image ships; undefined when it has none. */
  readonly imageNft: string | undefined;
  /** The commands the image has; undefined: every command the node model answers. */
  readonly tools: ReadonlySet<string> | undefined;
  readonly capabilities: ReadonlySet<string>;
  readonly hostPID: boolean;
  /** The pod's own network namespace (its IP), or undefined with hostNetwork. */
  readonly podIP: string | undefined;
  /** Mount paths of hostPath volumes of the host's "/". */
  readonly hostRootMounts: readonly string[];
  /** Set after `chroot <host root>` or `nsenter -t 1 -m`: the host's binaries run. */
  readonly inHostRoot: boolean;
}

export interface ContainerContextInput {
  readonly pod: KubeObject;
  readonly container: string;
  readonly images: readonly ImageSpec[];
  /** The nft of this container's image when the scenario does not say (kube-proxy's own). */
  readonly fallbackNft?: string | undefined;
}

function specOf(pod: KubeObject): JsonObject {
  return asRecord(pod['spec']);
}

function hostRootMounts(spec: JsonObject, container: JsonObject): string[] {
  const isRoot = (v: JsonObject): boolean => {
    const path = asString(asRecord(v['hostPath'])['path']);
    return path !== '' && path.replace(/\/+$/, '') === '';
  };
  const volumes = asArray(spec['volumes'])
    .filter(isJsonObject)
    .filter(isRoot)
    .map((v) => asString(v['name']));
  return asArray(container['volumeMounts'])
    .filter(isJsonObject)
    .filter((m) => volumes.includes(asString(m['name'])))
    .map((m) => asString(m['mountPath']).replace(/(.)\/+$/, '$1'));
}

export function containerContext(input: ContainerContextInput): ContainerContext {
  const spec = specOf(input.pod);
  const all = [
    ...asArray(spec['containers']),
    ...asArray(spec['initContainers']),
    ...asArray(spec['ephemeralContainers']),
  ].filter(isJsonObject);
  const container = all.find((c) => c['name'] === input.container) ?? {};
  const image = asString(container['image']);
  const contents = imageContents(image, input.images, input.fallbackNft ?? DEFAULT_IMAGE_NFT);
  const podIP = asString(asRecord(input.pod['status'])['podIP']);
  return {
    image,
    imageNft: contents.nft,
    tools: contents.tools,
    capabilities: containerCapabilities(spec, container),
    hostPID: spec['hostPID'] === true,
    podIP: spec['hostNetwork'] === true ? undefined : podIP,
    hostRootMounts: hostRootMounts(spec, container),
    inHostRoot: false,
  };
}
