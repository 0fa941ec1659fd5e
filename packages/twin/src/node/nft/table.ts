// Builds `table ip kube-proxy` / `table ip6 kube-proxy` from what nftables mode last synced, the
// way syncProxyRules writes it: one service-ips element per (ClusterIP, protocol, port), a
// service-<HASH>-ns/svc/proto/port chain with a numgen vmap, and one endpoint chain per endpoint.

import {
  servicePortName,
  type CatalogEndpoint,
  type CatalogServicePort,
} from '../dataplane/catalog.js';
import type { NftProgram } from '../dataplane/dataplane.js';
import { compareIPs, isLoopback, type IPFamily } from '../host/ip.js';
import type {
  Expr,
  NftChain,
  NftFamily,
  NftMapElement,
  NftRule,
  NftSet,
  NftTable,
  Stmt,
  Verdict,
} from './ast.js';
import { baseChains } from './base-chains.js';
import { endpointChainName, serviceChainBase } from './names.js';
import { externallyAccessible, portPolicy } from '../dataplane/service-policy.js';

export const familyOf: Record<NftFamily, IPFamily> = { ip: 'IPv4', ip6: 'IPv6' };

const goto = (target: string): Verdict => ({ kind: 'goto', target });
const jumpMasq: Stmt = { t: 'verdict', verdict: { kind: 'jump', target: 'mark-for-masquerade' } };

interface Builder {
  clusterIPs: Set<string>;
  serviceIPs: NftMapElement[];
  noEndpointServices: NftMapElement[];
  serviceNodePorts: NftMapElement[];
  noEndpointNodePorts: NftMapElement[];
  chains: Map<string, NftRule[]>;
}

function balance(sp: CatalogServicePort, eps: readonly CatalogEndpoint[]): NftRule {
  const entries = eps.map((ep) => goto(endpointChainName(sp, ep)));
  return { stmts: [{ t: 'vmapInline', key: { t: 'numgen', mod: eps.length }, entries }] };
}

function match(left: Expr, right: Expr, op: '==' | '!=' = '=='): Stmt {
  return { t: 'match', op, left, right };
}

const payload = (proto: string, field: string): Expr => ({ t: 'payload', proto, field });
const value = (v: string | number): Expr => ({ t: 'value', value: v });

function addServicePort(
  b: Builder,
  program: NftProgram,
  f: NftFamily,
  sp: CatalogServicePort,
): void {
  const pol = portPolicy(sp, program.nodeName);
  const proto = sp.protocol.toLowerCase();
  const base = serviceChainBase(sp);
  const clusterChain = `service-${base}`;
  const localChain = `local-${base}`;
  const externalChain = `external-${base}`;
  const internalChain = sp.internalPolicyLocal ? localChain : clusterChain;
  const externalPolicyChain = sp.externalPolicyLocal ? localChain : clusterChain;
  const hasInternal = pol.internal.length > 0;
  const hasExternal = pol.external.length > 0;
  const comment = servicePortName(sp);
  const key = (ip: string): (string | number)[] => [ip, proto, sp.port];
  const rejectOrDrop: Verdict = pol.hasEndpoints ? { kind: 'drop' } : goto('reject-chain');
  b.clusterIPs.add(sp.clusterIP);
  if (hasInternal) b.serviceIPs.push({ key: key(sp.clusterIP), verdict: goto(internalChain) });
  else b.noEndpointServices.push({ key: key(sp.clusterIP), verdict: rejectOrDrop, comment });
  for (const ip of [...sp.externalIPs, ...sp.loadBalancerIPs]) {
    if (pol.hasEndpoints) b.serviceIPs.push({ key: key(ip), verdict: goto(externalChain) });
    if (!hasExternal) b.noEndpointServices.push({ key: key(ip), verdict: rejectOrDrop, comment });
  }
  if (sp.nodePort !== undefined) {
    const npKey = [proto, sp.nodePort];
    if (pol.hasEndpoints) b.serviceNodePorts.push({ key: npKey, verdict: goto(externalChain) });
    if (!hasExternal) b.noEndpointNodePorts.push({ key: npKey, verdict: rejectOrDrop, comment });
  }
  if (hasInternal) {
    const vip = [
      match(payload(f, 'daddr'), value(sp.clusterIP)),
      match(payload(proto, 'dport'), value(sp.port)),
    ];
    const cidr = program.clusterCIDRs.find((c) => c.includes(':') === (f === 'ip6'));
    if (program.masqueradeAll) push(b, internalChain, { stmts: [...vip, jumpMasq] });
    else if (cidr !== undefined) {
      const [addr = '', len = '0'] = cidr.split('/');
      const notPod = match(payload(f, 'saddr'), { t: 'prefix', addr, len: Number(len) }, '!=');
      push(b, internalChain, { stmts: [...vip, notPod, jumpMasq] });
    }
  }
  if (pol.hasEndpoints && externallyAccessible(sp)) {
    if (!sp.externalPolicyLocal) push(b, externalChain, { stmts: [jumpMasq] });
    else {
      const local = match({ t: 'fib', flag: 'saddr' }, value('local'));
      push(b, externalChain, { stmts: [local, jumpMasq], comment: 'masquerade local traffic' });
      push(b, externalChain, {
        stmts: [local, { t: 'verdict', verdict: goto(clusterChain) }],
        comment: 'short-circuit local traffic',
      });
    }
    if (hasExternal)
      push(b, externalChain, { stmts: [{ t: 'verdict', verdict: goto(externalPolicyChain) }] });
  }
  const usesCluster =
    pol.clusterEndpoints.length > 0 &&
    (!sp.internalPolicyLocal || (externallyAccessible(sp) && !sp.externalPolicyLocal));
  const usesLocal =
    pol.localEndpoints.length > 0 &&
    (sp.internalPolicyLocal || (externallyAccessible(sp) && sp.externalPolicyLocal));
  if (usesCluster) push(b, clusterChain, balance(sp, pol.clusterEndpoints));
  if (usesLocal) push(b, localChain, balance(sp, pol.localEndpoints));
  const reachable = new Map<string, CatalogEndpoint>();
  for (const ep of [
    ...(usesCluster ? pol.clusterEndpoints : []),
    ...(usesLocal ? pol.localEndpoints : []),
  ])
    reachable.set(`${ep.ip}:${ep.port}`, ep);
  for (const ep of reachable.values()) {
    const chain = endpointChainName(sp, ep);
    push(b, chain, { stmts: [match(payload(f, 'saddr'), value(ep.ip)), jumpMasq] });
    push(b, chain, {
      stmts: [
        match({ t: 'meta', key: 'l4proto' }, value(proto)),
        { t: 'dnat', addr: ep.ip, port: ep.port },
      ],
    });
  }
}

function push(b: Builder, chain: string, r: NftRule): void {
  const list = b.chains.get(chain);
  if (list) list.push(r);
  else b.chains.set(chain, [r]);
}

function compareKeys(a: NftMapElement, b: NftMapElement): number {
  for (let i = 0; i < Math.max(a.key.length, b.key.length); i += 1) {
    const x = a.key[i] ?? '';
    const y = b.key[i] ?? '';
    const c =
      typeof x === 'number' && typeof y === 'number'
        ? x - y
        : i === 0
          ? compareIPs(String(x), String(y))
          : String(x).localeCompare(String(y));
    if (c !== 0) return c;
  }
  return 0;
}

export function buildNftTable(program: NftProgram, family: NftFamily): NftTable {
  const ipFamily = familyOf[family];
  const b: Builder = {
    clusterIPs: new Set(),
    serviceIPs: [],
    noEndpointServices: [],
    serviceNodePorts: [],
    noEndpointNodePorts: [],
    chains: new Map(),
  };
  for (const sp of program.catalog.ports)
    if (sp.family === ipFamily) addServicePort(b, program, family, sp);
  const scope = program.nodePorts[ipFamily];
  const addrType: NftSet['type'] = family === 'ip' ? 'ipv4_addr' : 'ipv6_addr';
  const serviceChains: NftChain[] = [...b.chains.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([name, rules]) => ({ name, rules }));
  const triple = [addrType, 'inet_proto', 'inet_service'];
  return {
    family,
    name: 'kube-proxy',
    comment: 'rules for kube-proxy',
    sets: [
      {
        name: 'cluster-ips',
        type: addrType,
        comment: 'Active ClusterIPs',
        elements: [...b.clusterIPs].sort(compareIPs),
      },
      ...(scope.all
        ? []
        : [
            {
              name: 'nodeport-ips',
              type: addrType,
              comment: 'IPs that accept NodePort traffic',
              elements: scope.ips.filter((ip) => !isLoopback(ip)).sort(compareIPs),
            },
          ]),
    ],
    maps: [
      {
        name: 'no-endpoint-services',
        keyTypes: triple,
        comment: 'vmap to drop or reject packets to services with no endpoints',
        elements: b.noEndpointServices.sort(compareKeys),
      },
      {
        name: 'no-endpoint-nodeports',
        keyTypes: ['inet_proto', 'inet_service'],
        comment: 'vmap to drop or reject packets to service nodeports with no endpoints',
        elements: b.noEndpointNodePorts.sort(compareKeys),
      },
      {
        name: 'firewall-ips',
        keyTypes: triple,
        comment: 'destinations that are subject to LoadBalancerSourceRanges',
        elements: [],
      },
      {
        name: 'service-ips',
        keyTypes: triple,
        comment: 'ClusterIP, ExternalIP and LoadBalancer IP traffic',
        elements: b.serviceIPs.sort(compareKeys),
      },
      {
        name: 'service-nodeports',
        keyTypes: ['inet_proto', 'inet_service'],
        comment: 'NodePort traffic',
        elements: b.serviceNodePorts.sort(compareKeys),
      },
    ],
    chains: [
      ...baseChains(family, program.version, program.masqueradeMark, scope),
      ...serviceChains,
    ],
  };
}
