/**
 * The tag of a container image, and the version in it, e.g. kube-proxy's own version from
 * `registry.k8s.io/kube-proxy:v1.33.4` or `…/eks/kube-proxy:v1.33.0-eksbuild.2`. kube-proxy's
 * behaviour follows its own version, which can lag the control plane's.
 */
import { parseVersion, type Version } from './version.js';

/**
 * `repo/name:tag@sha256:…` → `tag`; undefined without one. A colon before the last `/` is a
 * registry port (`localhost:5000/kube-proxy`), not a tag.
 */
export function imageTag(image: string): string | undefined {
  const reference = image.split('@')[0] ?? '';
  const colon = reference.lastIndexOf(':');
  if (colon <= reference.lastIndexOf('/')) return undefined;
  return reference.slice(colon + 1);
}

/** Undefined for untagged, digest-only or non-version tags (`latest`). */
export function imageTagVersion(image: string): Version | undefined {
  const tag = imageTag(image);
  return tag === undefined ? undefined : parseVersion(tag);
}
