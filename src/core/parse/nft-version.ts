/**
 * `nft --version` as the host prints it (reference/kube-proxy-facts.md §11):
 * `nftables v1.0.6 (Lester Gooch #5)`; `nft -V` prints the same first line followed by indented
 * feature lines (`  json:		yes`). Only the version number matters; the release name is noise.
 * Some builds carry a fourth part (`nftables v1.0.6.1 (…)`); only the first three count.
 */
import { parseVersion, type Version } from './version.js';

/** nft from here on could make kube-proxy's nft crash while listing or syncing (kubernetes/kubernetes#136786). */
export const NFT_CRASH_VERSION = { major: 1, minor: 1, patch: 3 } as const;

/** {@link NFT_CRASH_VERSION} as findings spell it: `1.1.3`. */
export const NFT_CRASH_LABEL = `${NFT_CRASH_VERSION.major}.${NFT_CRASH_VERSION.minor}.${NFT_CRASH_VERSION.patch}`;

/**
 * The host nft ≥ 1.1.3 crash as findings explain it (nft-version, kube-proxy-version). PR #137501
 * (and its 1.33–1.35 cherry-picks) fixed only the `nft list` crash; syncs (`nft -f`) kept
 * segfaulting (#136786 reopened, #140898 on v1.36.0) until the kube-proxy image shipped patched
 * nft 1.0.6.1 (kubernetes/release#4419, #4464; kubernetes/kubernetes#140405, July 2026).
 */
export const NFT_CRASH_NOTE = `Host nft ${NFT_CRASH_LABEL} and later writes sets and rules with udata (firewalld and other host tools do) that the older nft in the kube-proxy image segfaults on (kubernetes/kubernetes#136786). PR #137501, cherry-picked to 1.33-1.35, fixed only the crash while listing; syncs (nft -f) kept crashing (#136786 reopened, #140898 on v1.36.0) until the kube-proxy image shipped a patched nft 1.0.6.1 (kubernetes/kubernetes#140405, July 2026; which patch releases carry it is not verified here). The host's nft version is only a proxy for the trigger.`;

/** `major.minor[.patch[.extra]]`: the dotted number the version line and the stored form carry. */
const DOTTED = String.raw`(\d+\.\d+(?:\.\d+)?)(?:\.\d+)?`;

/**
 * `"nftables v1.0.6 (Lester Gooch #5)"` → `"1.0.6"` (and `v1.0.6.1` → `"1.0.6"`), the bare form
 * the probe stores; undefined when no version line is found.
 */
export function parseNftVersion(text: string): string | undefined {
  const match = new RegExp(String.raw`^\s*nftables v${DOTTED}(?![\d.])`, 'm').exec(text);
  return match?.[1];
}

/** The stored form (`1.0.6`, optionally `v1.0.6`) as a version; undefined when it is not one. */
export function nftVersion(stored: string): Version | undefined {
  const match = new RegExp(String.raw`^\s*v?${DOTTED}\s*$`).exec(stored);
  return match?.[1] === undefined ? undefined : parseVersion(match[1]);
}
