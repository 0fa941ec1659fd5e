// A node's service dataplane: what each kube-proxy backend left in the kernel, as the inputs it
// was last programmed from. Rules outlive the kube-proxy process: stop() changes nothing, and only
// platformCleanup (at the next start) or another sync replaces them.

import type { ServiceCatalog } from './catalog.js';
import type { IPFamily } from '../host/ip.js';
import { atLeast, type Version } from '../versions.js';

/** Which local addresses accept NodePort traffic for one IP family. */
export type NodePortScope =
  { readonly all: true } | { readonly all: false; readonly ips: readonly string[] };

interface ProgramBase {
  /** The kube-proxy release that wrote the rules (nft base-chain layout depends on it). */
  readonly version: Version;
  readonly catalog: ServiceCatalog;
  readonly nodeName: string;
  readonly syncedAt: number;
  readonly nodePorts: Readonly<Record<IPFamily, NodePortScope>>;
}

/** `table ip kube-proxy` and `table ip6 kube-proxy`. */
export interface NftProgram extends ProgramBase {
  readonly masqueradeMark: number;
  readonly masqueradeAll: boolean;
  readonly clusterCIDRs: readonly string[];
}

/** Kernel IPVS virtual servers plus the kube-ipvs0 dummy link holding the service IPs. */
export interface IpvsProgram extends ProgramBase {
  readonly scheduler: string;
  /** Node addresses that got a NodePort virtual server when this was programmed. */
  readonly nodePortIPs: readonly string[];
  /** IPVS mode reads iptables.masqueradeBit/masqueradeAll (conversion.go). */
  readonly masqueradeMark: number;
  readonly masqueradeAll: boolean;
  /** The ClusterCIDR local-traffic detector's CIDRs (no-op detector when empty). */
  readonly clusterCIDRs: readonly string[];
}

/** IPVS mode's iptables chains (`node/iptables/ipvs-rules.ts`). */
export interface IpvsIptables {
  readonly program: IpvsProgram;
  /**
   * iptables-mode CleanupLeftovers ran over them: it deletes the chains whose names it shares
   * (nat KUBE-SERVICES and KUBE-POSTROUTING, filter KUBE-FORWARD) and their jump rules.
   */
  readonly trimmed: boolean;
}

/** iptables mode's KUBE-* chains (modelled by what they route, not rendered). */
export interface IptablesProgram extends ProgramBase {
  readonly localhostNodePorts: boolean;
}

export interface Dataplane {
  readonly nft: NftProgram | undefined;
  /** Kernel IPVS virtual servers (`ipvsadm -C` clears them). */
  readonly ipvs: IpvsProgram | undefined;
  /** kube-ipvs0 and the service IPs on it (`ip link del kube-ipvs0` removes it). */
  readonly ipvsDummy: IpvsProgram | undefined;
  readonly iptables: IptablesProgram | undefined;
  /** IPVS mode's iptables rules, which reference its ipsets. */
  readonly ipvsIptables: IpvsIptables | undefined;
  /** IPVS mode's ipsets (KUBE-CLUSTER-IP, …), destroyed by the IPVS cleanup. */
  readonly ipsets: IpvsProgram | undefined;
  /** ip_vs is loaded once IPVS mode ran, or once a >= 1.34 cleanup ran `modprobe -va ip_vs`. */
  readonly ipvsModuleLoaded: boolean;
}

export const emptyDataplane: Dataplane = {
  nft: undefined,
  ipvs: undefined,
  ipvsDummy: undefined,
  iptables: undefined,
  ipvsIptables: undefined,
  ipsets: undefined,
  ipvsModuleLoaded: false,
};

export interface CleanupResult {
  readonly dataplane: Dataplane;
  /** PR #131243: modprobe failed, so all IPVS cleanup was skipped silently. */
  readonly ipvsCleanupSkipped: boolean;
}

/**
 * platformCleanup (server_linux.go), run at every start before the proxier is created:
 * nftables mode (or --cleanup) removes iptables and IPVS leftovers; iptables/ipvs mode (or
 * --cleanup) deletes the nftables tables. iptables <-> ipvs cleans nothing. `modprobeFails` models
 * a kube-proxy image without modprobe or without /lib/modules (fault `ipvs-cleanup-skipped`).
 */
export function platformCleanup(
  dp: Dataplane,
  mode: 'iptables' | 'ipvs' | 'nftables',
  cleanupAndExit: boolean,
  version: Version,
  modprobeFails: boolean,
): CleanupResult {
  let next = dp;
  let skipped = false;
  if (mode === 'nftables' || cleanupAndExit) {
    // iptables.CleanupLeftovers runs first and removes what it knows by name, also from IPVS mode.
    const trimmed = next.ipvsIptables && { ...next.ipvsIptables, trimmed: true };
    next = { ...next, iptables: undefined, ipvsIptables: trimmed };
    // The fault forces what PR #131243 does naturally from 1.34 when modprobe is missing, so a
    // rehearsal can show leftover IPVS state on any version (TWIN.md gives it no version).
    const ipvsRest = { ipvsDummy: undefined, ipvsIptables: undefined, ipsets: undefined };
    if (modprobeFails) skipped = true;
    else if (atLeast(version, 34)) {
      // ipvs.Flush() clears every virtual server on the host, not only kube-proxy's.
      next = { ...next, ...ipvsRest, ipvs: undefined, ipvsModuleLoaded: true };
    } else next = { ...next, ...ipvsRest, ipvs: next.ipvsModuleLoaded ? undefined : next.ipvs };
  }
  if (mode !== 'nftables' || cleanupAndExit) next = { ...next, nft: undefined };
  return { dataplane: next, ipvsCleanupSkipped: skipped };
}
