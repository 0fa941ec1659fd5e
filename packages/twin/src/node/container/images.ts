// What an image holds, as far as `kubectl exec` into one of its containers can tell: the nft it
// ships and the commands it has. Scenario `spec.images` entries say it per image reference glob;
// later entries override earlier ones field by field, as `spec.hosts` entries do.

import type { ImageSpec } from '../../scenario/schema.js';

export interface ImageContents {
  /** The nft version in the image; undefined when the image has no nft. */
  readonly nft: string | undefined;
  /** The commands the image has; undefined: every command the node model answers. */
  readonly tools: ReadonlySet<string> | undefined;
}

/**
 * nft in an image the scenario says nothing about: Debian bookworm's nftables 1.0.6, the base of
 * the product's probe image (deploy/probe/Dockerfile) and of most tool images.
 */
export const DEFAULT_IMAGE_NFT = '1.0.6';

/** `*` matches any run of characters (slashes included); everything else is literal. */
export function imageMatches(pattern: string, image: string): boolean {
  const parts = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`).test(image);
}

/**
 * The image's contents: matching `spec.images` entries over `fallbackNft` (the kube-proxy image's
 * own nft for kube-proxy containers, DEFAULT_IMAGE_NFT for the rest). `nft: none`, or a `tools`
 * list without nft, means the image has no nft.
 */
export function imageContents(
  image: string,
  images: readonly ImageSpec[],
  fallbackNft: string,
): ImageContents {
  let nft: string | undefined;
  let tools: string[] | undefined;
  for (const spec of images) {
    if (!imageMatches(spec.match, image)) continue;
    if (spec.nft !== undefined) nft = spec.nft;
    if (spec.tools !== undefined) tools = [...spec.tools];
  }
  const toolSet = tools === undefined ? undefined : new Set(tools);
  const hasNft = nft !== 'none' && (toolSet === undefined || toolSet.has('nft'));
  return { nft: hasNft ? (nft ?? fallbackNft) : undefined, tools: toolSet };
}
