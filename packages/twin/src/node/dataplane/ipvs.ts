// What IPVS mode leaves in the kernel: one virtual server per (service IP, port, protocol) and
// per (node address, NodePort) with its real servers, plus the service IPs bound to kube-ipvs0.

import type { Protocol } from './catalog.js';
import type { IpvsProgram } from './dataplane.js';
import { compareIPs, isIPv6, sortIPs } from '../host/ip.js';
import { portPolicy } from './service-policy.js';

export interface RealServer {
  readonly address: string;
  readonly port: number;
  readonly weight: number;
}

export interface VirtualServer {
  readonly protocol: Protocol;
  readonly address: string;
  readonly port: number;
  readonly scheduler: string;
  /** Session affinity ClientIP becomes an IPVS persistence timeout. */
  readonly persistent: number | undefined;
  readonly dests: readonly RealServer[];
}

const protocolNumber: Record<Protocol, number> = { TCP: 6, UDP: 17, SCTP: 132 };

function compareVS(a: VirtualServer, b: VirtualServer): number {
  const af = Number(isIPv6(a.address)) - Number(isIPv6(b.address));
  return (
    af ||
    protocolNumber[a.protocol] - protocolNumber[b.protocol] ||
    compareIPs(a.address, b.address) ||
    a.port - b.port
  );
}

export function ipvsVirtualServers(program: IpvsProgram): VirtualServer[] {
  const scheduler = program.scheduler === '' ? 'rr' : program.scheduler;
  const out: VirtualServer[] = [];
  for (const sp of program.catalog.ports) {
    const pol = portPolicy(sp, program.nodeName);
    const dests = (eps: typeof pol.internal): RealServer[] =>
      [...eps]
        .map((e) => ({ address: e.ip, port: e.port, weight: 1 }))
        .sort((x, y) => compareIPs(x.address, y.address) || x.port - y.port);
    const vs = (address: string, port: number, eps: typeof pol.internal): VirtualServer => ({
      protocol: sp.protocol,
      address,
      port,
      scheduler,
      persistent: sp.affinityTimeout,
      dests: dests(eps),
    });
    out.push(vs(sp.clusterIP, sp.port, pol.internal));
    for (const ip of [...sp.externalIPs, ...sp.loadBalancerIPs])
      out.push(vs(ip, sp.port, pol.external));
    if (sp.nodePort !== undefined)
      for (const ip of program.nodePortIPs)
        if (isIPv6(ip) === (sp.family === 'IPv6')) out.push(vs(ip, sp.nodePort, pol.external));
  }
  return out.sort(compareVS);
}

/** Addresses on kube-ipvs0: every ClusterIP, external IP and load-balancer IP, once. */
/** A program is replaced, never changed, on each sync: its addresses are computed once. */
const dummyAddresses = new WeakMap<IpvsProgram, readonly string[]>();

export function ipvsDummyAddresses(program: IpvsProgram): readonly string[] {
  const cached = dummyAddresses.get(program);
  if (cached !== undefined) return cached;
  const ips = new Set<string>();
  for (const sp of program.catalog.ports)
    for (const ip of [sp.clusterIP, ...sp.externalIPs, ...sp.loadBalancerIPs]) ips.add(ip);
  const sorted = sortIPs(ips);
  dummyAddresses.set(program, sorted);
  return sorted;
}
