// The nftables proxier's support checks (getNFTablesInterface / knftables.New), which run AFTER
// platformCleanup: the nft binary in the container must be v1.0.1+, then the kernel must be 5.13+
// unless KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK is set. Both arrived in v1.31. In v1.31 and
// v1.32 the env test was inverted (fixed by PR #130401 in v1.33): the kernel check ran ONLY when
// the variable was set. The nft checked is the one in the kube-proxy IMAGE, not the host's: the
// upstream images ship a recent nft, so it passes unless the pod annotation
// `twin.proxy-migrate.io/container-nft` says otherwise. That is why a host with an old kernel
// fails on the kernel check (and why the host's nft still matters for the host, not kube-proxy).

import type { HostFacts } from '../host/host.js';
import type { KubeProxyConfig } from './config.js';
import {
  atLeast,
  kernelAtLeast,
  nftTooOld,
  nftVersionLine,
  parseKernel,
  type Version,
} from '../versions.js';

/** nft in the upstream kube-proxy images of the nftables era (distroless-iptables based). */
export const IMAGE_NFT = '1.0.9';

export function kernelCheckRuns(config: KubeProxyConfig, version: Version): boolean {
  if (!atLeast(version, 31)) return false;
  return atLeast(version, 33) ? !config.skipKernelCheck : config.skipKernelCheck;
}

/** The error NewProxier returns for the IPv4 family, or undefined when nftables mode can start. */
export function nftablesCheck(
  config: KubeProxyConfig,
  facts: HostFacts,
  version: Version,
): string | undefined {
  if (!atLeast(version, 31)) return undefined;
  const nft = config.containerNft ?? IMAGE_NFT;
  if (nftTooOld(nft)) return `nft version must be v1.0.1 or later (got ${nftVersionLine(nft)})`;
  if (!kernelCheckRuns(config, version)) return undefined;
  if (parseKernel(facts.kernel) === undefined)
    return `could not check kernel version: failed to parse kernel version "${facts.kernel}"`;
  return kernelAtLeast(facts.kernel, 5, 13)
    ? undefined
    : 'kube-proxy in nftables mode requires kernel 5.13 or later';
}
