/**
 * `nft --version` as the host prints it (reference/kube-proxy-facts.md §11):
 * `nftables v1.0.6 (Lester Gooch #5)`; `nft -V` prints the same first line followed by indented
 * feature lines (`  json:		yes`). Only the version number matters; the release name is noise.
 */

/** `"nftables v1.0.6 (Lester Gooch #5)"` → `"1.0.6"`; undefined when no version line is found. */
export function parseNftVersion(text: string): string | undefined {
  const match = /^\s*nftables v(\d+\.\d+(?:\.\d+)?)(?![\d.])/m.exec(text);
  return match?.[1];
}
