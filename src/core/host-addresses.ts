/**
 * The host's own addresses, as NodePorts see them, and which of them nftables' default keeps.
 * IPVS answers NodePorts on every local address but kube-ipvs0's; nftables with nodePortAddresses
 * unset uses `primary` (backend Init / platformApplyDefaults), which cmd/kube-proxy/app/server.go
 * turns into the node IP of each family as `/32` and `/128` (detectNodeIPs: bindAddress, else
 * GetNodeHostIPs: the first InternalIP, else ExternalIP, plus the first of the other family;
 * loopback is left out). pkg/proxy/util/nodeport_addresses.go then gives a family without any
 * CIDR `0.0.0.0/0` or `::/0`: that family keeps answering on every address.
 */
import { ipFamily, isLoopbackOrLinkLocal, normalizeIp, type IpFamily } from './ip.js';
import type { KubeNode } from './kube.js';
import type { IpLink } from './parse/ip-json.js';

/** One address a host holds on one of its own interfaces. */
export interface HostAddress {
  interface: string;
  address: string;
  prefixlen: number;
}

/**
 * Interfaces whose addresses are not the host's own: IPVS' dummy (every Service IP),
 * NodeLocal DNSCache's dummy, CNI bridges, tunnels and pod-side links.
 */
export const VIRTUAL_INTERFACE =
  /^(kube-ipvs0|nodelocaldns|docker\d|cni\d|cni-|flannel[.-]|cilium_|cali|tunl\d|vxlan|weave|lxc|veth|kube-bridge|kube-dummy-if|antrea-|ovn-k8s-|genev_sys_)/;

/** `ip -j addr`'s addresses on the host's own interfaces: no loopback, link-local or scope host. */
export function hostOwnAddresses(links: readonly IpLink[]): HostAddress[] {
  const seen = new Set<string>();
  const out: HostAddress[] = [];
  for (const link of links) {
    if (VIRTUAL_INTERFACE.test(link.name) || link.flags.includes('LOOPBACK')) continue;
    for (const a of link.addresses) {
      if (a.scope === 'host' || a.scope === 'link') continue;
      if (ipFamily(a.local) === undefined || isLoopbackOrLinkLocal(a.local)) continue;
      const address = normalizeIp(a.local);
      if (seen.has(address)) continue;
      seen.add(address);
      out.push({ interface: link.name, address, prefixlen: a.prefixlen });
    }
  }
  return out;
}

/** The node IP of each family kube-proxy derives (detectNodeIPs); loopback is never one. */
export function kubeProxyNodeIPs(
  node: KubeNode,
  bindAddress?: string,
): Partial<Record<IpFamily, string>> {
  const all = node.status?.addresses ?? [];
  const ips = [
    ...all.filter((a) => a.type === 'InternalIP'),
    ...all.filter((a) => a.type === 'ExternalIP'),
  ]
    .map((a) => a.address.trim())
    .filter((ip) => ipFamily(ip) !== undefined);
  const result: Partial<Record<IpFamily, string>> = {};
  const first = ips[0];
  if (first !== undefined) {
    const family = ipFamily(first);
    if (family !== undefined) result[family] = normalizeIp(first);
    const other = ips.find((ip) => ipFamily(ip) !== family);
    const otherFamily = other === undefined ? undefined : ipFamily(other);
    if (other !== undefined && otherFamily !== undefined) result[otherFamily] = normalizeIp(other);
  }
  const bind = bindAddress?.trim();
  const bindFamily = bind === undefined ? undefined : ipFamily(bind);
  if (bind !== undefined && bindFamily !== undefined && !/^(0\.0\.0\.0|::)$/.test(bind))
    result[bindFamily] = normalizeIp(bind);
  for (const family of ['IPv4', 'IPv6'] as const) {
    const ip = result[family];
    if (ip !== undefined && /^(127\.|::1$)/.test(ip)) delete result[family];
  }
  return result;
}

/** What `primary` keeps: the node IP of a family, or every address of a family without one. */
export function keptByPrimary(
  address: string,
  nodeIPs: Partial<Record<IpFamily, string>>,
): boolean {
  const family = ipFamily(address);
  if (family === undefined) return false;
  const ip = nodeIPs[family];
  return ip === undefined || ip === normalizeIp(address);
}
