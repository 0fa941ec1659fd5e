// IPVS mode's ipsets and their entries, as syncProxyRules fills them (pkg/proxy/ipvs/proxier.go,
// ipsetInfo; names and comments from pkg/proxy/ipvs/ipset.go). The IPv6 proxier's sets are named
// KUBE-6-… (truncated to 31 characters); entries use utilipset.Entry.String().

import { usableEndpoints } from '../dataplane/catalog.js';
import type { IpvsProgram } from '../dataplane/dataplane.js';
import { ipvsDummyAddresses } from '../dataplane/ipvs.js';
import type { IPFamily } from '../host/ip.js';
import { compareIPs, ipFamily } from '../host/ip.js';

export type IpSetType =
  'hash:ip' | 'hash:ip,port' | 'hash:ip,port,ip' | 'hash:ip,port,net' | 'bitmap:port';

export interface IpSet {
  /** The IPv4 name (KUBE-CLUSTER-IP); `name` is the family's (KUBE-6-CLUSTER-IP for IPv6). */
  readonly key: string;
  readonly name: string;
  readonly type: IpSetType;
  readonly comment: string;
  readonly entries: readonly string[];
}

/** ipsetInfo, in its order: name, type, comment. */
export const ipsetInfo: readonly (readonly [string, IpSetType, string])[] = [
  [
    'KUBE-LOOP-BACK',
    'hash:ip,port,ip',
    'Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose',
  ],
  [
    'KUBE-CLUSTER-IP',
    'hash:ip,port',
    'Kubernetes service cluster ip + port for masquerade purpose',
  ],
  [
    'KUBE-EXTERNAL-IP',
    'hash:ip,port',
    'Kubernetes service external ip + port for masquerade and filter purpose',
  ],
  [
    'KUBE-EXTERNAL-IP-LOCAL',
    'hash:ip,port',
    'Kubernetes service external ip + port with externalTrafficPolicy=local',
  ],
  ['KUBE-LOAD-BALANCER', 'hash:ip,port', 'Kubernetes service lb portal'],
  [
    'KUBE-LOAD-BALANCER-FW',
    'hash:ip,port',
    'Kubernetes service load balancer ip + port for load balancer with sourceRange',
  ],
  [
    'KUBE-LOAD-BALANCER-LOCAL',
    'hash:ip,port',
    'Kubernetes service load balancer ip + port with externalTrafficPolicy=local',
  ],
  [
    'KUBE-LOAD-BALANCER-SOURCE-IP',
    'hash:ip,port,ip',
    'Kubernetes service load balancer ip + port + source IP for packet filter purpose',
  ],
  [
    'KUBE-LOAD-BALANCER-SOURCE-CIDR',
    'hash:ip,port,net',
    'Kubernetes service load balancer ip + port + source cidr for packet filter purpose',
  ],
  ['KUBE-NODE-PORT-TCP', 'bitmap:port', 'Kubernetes nodeport TCP port for masquerade purpose'],
  [
    'KUBE-NODE-PORT-LOCAL-TCP',
    'bitmap:port',
    'Kubernetes nodeport TCP port with externalTrafficPolicy=local',
  ],
  ['KUBE-NODE-PORT-UDP', 'bitmap:port', 'Kubernetes nodeport UDP port for masquerade purpose'],
  [
    'KUBE-NODE-PORT-LOCAL-UDP',
    'bitmap:port',
    'Kubernetes nodeport UDP port with externalTrafficPolicy=local',
  ],
  [
    'KUBE-NODE-PORT-SCTP-HASH',
    'hash:ip,port',
    "Kubernetes nodeport SCTP port for masquerade purpose with type 'hash ip:port'",
  ],
  [
    'KUBE-NODE-PORT-LOCAL-SCTP-HASH',
    'hash:ip,port',
    "Kubernetes nodeport SCTP port with externalTrafficPolicy=local with type 'hash ip:port'",
  ],
  ['KUBE-HEALTH-CHECK-NODE-PORT', 'bitmap:port', 'Kubernetes health check node port'],
  ['KUBE-IPVS-IPS', 'hash:ip', 'Addresses on the ipvs interface'],
];

/** NewIPSet: the IPv6 proxier swaps the KUBE- prefix for KUBE-6- and truncates to 31. */
export function setName(name: string, family: IPFamily): string {
  return family === 'IPv6' ? name.replace(/^KUBE-/, 'KUBE-6-').slice(0, 31) : name;
}

function sortEntries(entries: Set<string>): string[] {
  return [...entries].sort((a, b) => {
    const [ia = '', ra = ''] = a.split(/,(.*)/);
    const [ib = '', rb = ''] = b.split(/,(.*)/);
    if (ipFamily(ia) && ipFamily(ib)) return compareIPs(ia, ib) || (ra < rb ? -1 : ra > rb ? 1 : 0);
    return Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0);
  });
}

/** Every set of one family's proxier with the entries this program gave it. */
export function ipvsIpsets(program: IpvsProgram, family: IPFamily): IpSet[] {
  const e = new Map<string, Set<string>>(ipsetInfo.map(([n]) => [n, new Set<string>()]));
  const add = (set: string, entry: string): void => void e.get(set)?.add(entry);
  for (const sp of program.catalog.ports) {
    if (sp.family !== family) continue;
    const proto = sp.protocol.toLowerCase();
    for (const ep of usableEndpoints(sp))
      if (ep.nodeName === program.nodeName)
        add('KUBE-LOOP-BACK', `${ep.ip},${proto}:${ep.port},${ep.ip}`);
    add('KUBE-CLUSTER-IP', `${sp.clusterIP},${proto}:${sp.port}`);
    for (const ip of sp.externalIPs)
      add(
        sp.externalPolicyLocal ? 'KUBE-EXTERNAL-IP-LOCAL' : 'KUBE-EXTERNAL-IP',
        `${ip},${proto}:${sp.port}`,
      );
    for (const ip of sp.loadBalancerIPs) {
      add('KUBE-LOAD-BALANCER', `${ip},${proto}:${sp.port}`);
      if (sp.externalPolicyLocal) add('KUBE-LOAD-BALANCER-LOCAL', `${ip},${proto}:${sp.port}`);
    }
    const nodeIPs = program.nodePortIPs.filter((ip) => ipFamily(ip) === family);
    if (sp.nodePort === undefined || nodeIPs.length === 0) continue;
    // Every NodePort goes in the protocol's set; externalTrafficPolicy=Local ones also in -LOCAL-.
    const sets = sp.externalPolicyLocal ? ['', '-LOCAL'] : [''];
    for (const local of sets)
      if (sp.protocol === 'SCTP')
        for (const ip of nodeIPs)
          add(`KUBE-NODE-PORT${local}-SCTP-HASH`, `${ip},sctp:${sp.nodePort}`);
      else add(`KUBE-NODE-PORT${local}-${sp.protocol}`, String(sp.nodePort));
  }
  for (const ip of ipvsDummyAddresses(program))
    if (ipFamily(ip) === family) add('KUBE-IPVS-IPS', ip);
  return ipsetInfo.map(([key, type, comment]) => ({
    key,
    name: setName(key, family),
    type,
    comment,
    entries: sortEntries(e.get(key) ?? new Set()),
  }));
}

export function setByKey(sets: readonly IpSet[], key: string): IpSet {
  const set = sets.find((s) => s.key === key);
  if (!set) throw new Error(`twin: no ipset ${key}`);
  return set;
}
