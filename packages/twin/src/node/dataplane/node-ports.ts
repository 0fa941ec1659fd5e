// nodePortAddresses: which local addresses accept NodePort traffic. Unset means every local IP in
// iptables/ipvs mode and `primary` (the Node object's primary IPs) in nftables mode; CIDRs select
// local IPs; 0.0.0.0/0 or ::/0 (and `all`, from v1.38) match everything. Loopback never works in
// nftables or ipvs mode; iptables mode accepts it with localhostNodePorts + route_localnet.

import type { NodePortScope } from './dataplane.js';
import type { HostFacts } from '../host/host.js';
import { cidrContains, ipFamily, isLoopback, parseCidr, type IPFamily } from '../host/ip.js';
import type { ProxyMode } from '../kube-proxy/config.js';

export interface NodePortResolution {
  readonly scope: NodePortScope;
  /** Loopback addresses the configuration selected but nftables refuses (logged as errors). */
  readonly rejectedLoopback: readonly string[];
}

const loopbackFor: Record<IPFamily, string> = { IPv4: '127.0.0.1', IPv6: '::1' };

export function localAddresses(facts: HostFacts, family: IPFamily): string[] {
  return [loopbackFor[family], ...facts.addresses.filter((ip) => ipFamily(ip) === family)];
}

export function resolveNodePortScope(
  mode: ProxyMode,
  entries: readonly string[],
  localhostNodePorts: boolean,
  facts: HostFacts,
  family: IPFamily,
): NodePortResolution {
  const locals = localAddresses(facts, family);
  const keepLoopback = mode === 'iptables' && localhostNodePorts;
  const finish = (ips: string[]): NodePortResolution => ({
    scope: { all: false, ips: ips.filter((ip) => keepLoopback || !isLoopback(ip)) },
    rejectedLoopback: mode === 'nftables' ? ips.filter(isLoopback) : [],
  });
  if (entries.length === 0) {
    if (mode === 'nftables') return { scope: { all: false, ips: [] }, rejectedLoopback: [] };
    return keepLoopback ? { scope: { all: true }, rejectedLoopback: [] } : finish(locals);
  }
  const selected = new Set<string>();
  for (const entry of entries) {
    if (entry === 'all') return { scope: { all: true }, rejectedLoopback: [] };
    if (entry === 'primary') {
      for (const ip of facts.nodeIPs) if (ipFamily(ip) === family) selected.add(ip);
      continue;
    }
    const cidr = parseCidr(entry);
    if (!cidr || cidr.family !== family) continue;
    if (cidr.prefix === 0) return { scope: { all: true }, rejectedLoopback: [] };
    for (const ip of locals) if (cidrContains(cidr, ip)) selected.add(ip);
  }
  return finish([...selected]);
}

/** Whether `ip` (a local address of the node) accepts NodePorts under `scope`. */
export function scopeAccepts(scope: NodePortScope, ip: string, allowLoopback: boolean): boolean {
  if (isLoopback(ip) && !allowLoopback) return false;
  return scope.all || scope.ips.includes(ip);
}
