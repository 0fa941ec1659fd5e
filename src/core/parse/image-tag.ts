/**
 * The version in a container image's tag, e.g. kube-proxy's own version from
 * `registry.k8s.io/kube-proxy:v1.33.4` or `…/eks/kube-proxy:v1.33.0-eksbuild.2`. kube-proxy's
 * behaviour follows its own version, which can lag the control plane's.
 */
import { parseVersion, type Version } from './version.js';

/** Undefined for untagged, digest-only or non-version tags (`latest`). */
export function imageTagVersion(image: string): Version | undefined {
  const reference = image.split('@')[0] ?? '';
  const colon = reference.lastIndexOf(':');
  if (colon <= reference.lastIndexOf('/')) return undefined;
  return parseVersion(reference.slice(colon + 1));
}
