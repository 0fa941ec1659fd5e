/**
 * Which addresses a NodePort must answer on after a move, computed as kube-proxy does
 * (pkg/proxy/util/nodeport_addresses.go, cmd/kube-proxy/app/server.go): nodePortAddresses unset
 * means `primary` in nftables mode and every local address in IPVS mode (facts §8); `primary`
 * is the node's first InternalIP (else ExternalIP) plus the first of the other family; CIDRs
 * are taken per family, and a family with no CIDR matches all its addresses.
 */
import {
  cidrContains,
  ipFamily,
  isLoopbackOrLinkLocal,
  normalizeIp,
  parseCidr,
  type Cidr,
} from '../core/ip.js';
import { VIRTUAL_INTERFACE } from '../core/host-addresses.js';
import type { KubeNode } from '../core/kube.js';
import type { IpLink } from '../core/parse/ip-json.js';
import type { ExpectedPort } from './expected.js';
import type { ReachabilityTarget } from './types.js';

/** Interfaces whose addresses are not the node's own (the pre-flight skips the same ones). */
const VIRTUAL = VIRTUAL_INTERFACE;

export function primaryAddresses(node: KubeNode): string[] {
  const all = node.status?.addresses ?? [];
  const ips = [
    ...all.filter((a) => a.type === 'InternalIP'),
    ...all.filter((a) => a.type === 'ExternalIP'),
  ]
    .map((a) => a.address)
    .filter((ip) => ipFamily(ip) !== undefined);
  const first = ips[0];
  if (first === undefined) return [];
  const other = ips.find((ip) => ipFamily(ip) !== ipFamily(first));
  return [first, ...(other === undefined ? [] : [other])].map(normalizeIp);
}

function nodeIPs(node: KubeNode, links: readonly IpLink[] | undefined): string[] {
  const own = links
    ?.filter((l) => !VIRTUAL.test(l.name))
    .flatMap((l) => l.addresses.map((a) => a.local));
  const fromNode = (node.status?.addresses ?? []).map((a) => a.address);
  const ips = [...primaryAddresses(node), ...(own ?? fromNode)]
    .filter((ip) => ipFamily(ip) !== undefined && !isLoopbackOrLinkLocal(ip))
    .map(normalizeIp);
  return [...new Set(ips)];
}

export interface NodePortAddress {
  ip: string;
  kind: 'primary' | 'secondary';
}

export function nodePortAddresses(input: {
  node: KubeNode;
  /** `ip -j addr` on the node; without it, the Node object's addresses. */
  links?: readonly IpLink[] | undefined;
  /** nodePortAddresses of the configuration that will serve the node; unset = undefined or []. */
  setting?: readonly string[] | undefined;
  mode: 'nftables' | 'ipvs';
}): NodePortAddress[] {
  const primary = primaryAddresses(input.node);
  const values = input.setting?.length
    ? input.setting
    : input.mode === 'nftables'
      ? ['primary']
      : ['all'];
  const cidrs: Cidr[] = values.flatMap((v): Cidr[] => {
    const value = v.trim();
    if (value === 'all')
      return ['0.0.0.0/0', '::/0']
        .map((c) => parseCidr(c))
        .filter((c): c is Cidr => c !== undefined);
    if (value === 'primary')
      return primary.map((ip) => parseCidr(ip)).filter((c): c is Cidr => c !== undefined);
    const cidr = parseCidr(value);
    return cidr === undefined ? [] : [cidr];
  });
  const matches = (ip: string): boolean => {
    const ofFamily = cidrs.filter((c) => c.family === ipFamily(ip));
    return ofFamily.length === 0 || ofFamily.some((c) => cidrContains(c, ip));
  };
  return nodeIPs(input.node, input.links)
    .filter(matches)
    .map((ip) => ({ ip, kind: primary.includes(ip) ? 'primary' : 'secondary' }));
}

/** One target per address for a NodePort Service port (pick one with endpoints and policy Cluster). */
export function nodePortTargets(
  addresses: readonly NodePortAddress[],
  port: ExpectedPort,
): ReachabilityTarget[] {
  if (port.nodePort === undefined) return [];
  const nodePort = port.nodePort;
  return addresses
    .filter((a) => ipFamily(a.ip) === port.family)
    .map((a) => ({
      kind: 'nodeport',
      host: a.ip,
      port: nodePort,
      service: port.service,
      address: a.kind,
    }));
}

export function clusterIPTarget(port: ExpectedPort): ReachabilityTarget {
  return { kind: 'clusterip', host: port.ip, port: port.port, service: port.service };
}
