// The kube-proxy image's own nft, which both kube-proxy's nftables check and `kubectl exec nft`
// in its container read: the pod annotation twin.proxy-migrate.io/container-nft, else a
// matching `spec.images` entry, else IMAGE_NFT (the upstream images' nft).

import type { ImageSpec } from '../../scenario/schema.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asString } from '../../apimachinery/types.js';
import { containerNftAnnotation, type ConfigResolution } from '../kube-proxy/config.js';
import { kubeProxyContainer } from '../kube-proxy/pod-spec.js';
import { IMAGE_NFT } from '../kube-proxy/startup-checks.js';
import { containerContext, type ContainerContext } from './context.js';
import { imageContents } from './images.js';

/** kube-proxy checks the nft of its own image: a `spec.images` entry for it, unless annotated. */
export function withImageNft(
  resolution: ConfigResolution,
  pod: KubeObject,
  images: readonly ImageSpec[],
): ConfigResolution {
  if (!resolution.ok || resolution.config.containerNft !== undefined) return resolution;
  const image = asString(kubeProxyContainer(pod)['image']);
  const nft = imageContents(image, images, IMAGE_NFT).nft;
  if (nft === undefined || nft === IMAGE_NFT) return resolution;
  return { ...resolution, config: { ...resolution.config, containerNft: nft } };
}

/**
 * The container an exec lands in. The kube-proxy container of a kube-proxy pod ships the
 * kube-proxy image's nft: the pod annotation twin.proxy-migrate.io/container-nft, else a
 * matching `spec.images` entry, else IMAGE_NFT; any other container its image's.
 */
export function execContainer(
  pod: KubeObject,
  container: string,
  images: readonly ImageSpec[],
  kubeProxyPod: boolean,
): ContainerContext {
  const isKubeProxy = kubeProxyPod && kubeProxyContainer(pod)['name'] === container;
  if (!isKubeProxy) return containerContext({ pod, container, images });
  const annotated = pod.metadata.annotations?.[containerNftAnnotation];
  const context = containerContext({ pod, container, images, fallbackNft: IMAGE_NFT });
  return annotated === undefined ? context : { ...context, imageNft: annotated };
}
