// How one node's dataplane handles a packet to a service IP or to one of its own addresses on a
// NodePort. Backends are tried in hook order: nftables DNATs first, then iptables' KUBE-* chains,
// then IPVS (which only sees what is still addressed to a local VIP). Each uses the Services it
// was last synced with, so stale rules send traffic to stale endpoints.

import {
  emptyCatalog,
  nodePortKey,
  type CatalogEndpoint,
  type CatalogServicePort,
  type Protocol,
  type ServiceCatalog,
} from '../dataplane/catalog.js';
import type { NodePortScope } from '../dataplane/dataplane.js';
import { ipFamily, type IPFamily } from '../host/ip.js';
import { scopeAccepts } from '../dataplane/node-ports.js';
import { portPolicy, type PortPolicy } from '../dataplane/service-policy.js';
import type { NodeState } from '../view.js';

export type Backend = 'nftables' | 'iptables' | 'ipvs';

/** A dataplane decision: forward to endpoints, reject (RST), or drop (silence). */
export type Verdict =
  | {
      readonly kind: 'forward';
      readonly backend: Backend;
      readonly service: CatalogServicePort;
      readonly endpoints: readonly CatalogEndpoint[];
    }
  | { readonly kind: 'reject' | 'drop'; readonly backend: Backend; readonly reason: string };

interface Program {
  readonly backend: Backend;
  readonly catalog: ServiceCatalog;
  readonly nodePorts: Readonly<Record<IPFamily, NodePortScope>>;
  readonly allowLoopback: boolean;
  readonly nodePortIPs?: readonly string[];
  /** IPVS: whether the VIP is bound on kube-ipvs0 (a local address) on this node. */
  readonly local?: (ip: string) => boolean;
}

function programs(state: NodeState): Program[] {
  const dp = state.dataplane;
  const out: Program[] = [];
  if (dp.nft)
    out.push({
      backend: 'nftables',
      catalog: dp.nft.catalog,
      nodePorts: dp.nft.nodePorts,
      allowLoopback: false,
    });
  if (dp.iptables)
    out.push({
      backend: 'iptables',
      catalog: dp.iptables.catalog,
      nodePorts: dp.iptables.nodePorts,
      allowLoopback: dp.iptables.localhostNodePorts && state.sysctls.routeLocalnet,
    });
  const dummy = dp.ipvsDummy;
  const vs = dp.ipvs ?? dummy;
  if (vs)
    out.push({
      backend: 'ipvs',
      catalog: dp.ipvs?.catalog ?? emptyCatalog,
      nodePorts: vs.nodePorts,
      allowLoopback: false,
      nodePortIPs: dp.ipvs?.nodePortIPs ?? [],
      local: (ip) => dummy?.catalog.byServiceIP.has(ip) === true,
    });
  return out;
}

function find(
  list: readonly CatalogServicePort[] | undefined,
  family: IPFamily,
  port: number,
  proto: Protocol,
): CatalogServicePort | undefined {
  return list?.find((sp) => sp.family === family && sp.port === port && sp.protocol === proto);
}

/**
 * The verdict for a Service port a backend matched on `node`: reject (RST) when it has no usable
 * endpoint anywhere, drop when the traffic policy (`policy`, Local) leaves none of the endpoints
 * `pick` chooses, else forward to them.
 */
function policyVerdict(
  backend: Backend,
  sp: CatalogServicePort,
  node: string,
  policy: 'internalTrafficPolicy' | 'externalTrafficPolicy',
  pick: (pol: PortPolicy) => readonly CatalogEndpoint[],
): Verdict {
  const pol = portPolicy(sp, node);
  if (!pol.hasEndpoints)
    return {
      kind: 'reject',
      backend,
      reason: `Service ${sp.namespace}/${sp.name} has no endpoints`,
    };
  const endpoints = pick(pol);
  if (endpoints.length === 0)
    return { kind: 'drop', backend, reason: `${policy} Local and no endpoint on ${node}` };
  return { kind: 'forward', backend, service: sp, endpoints };
}

/** A packet from `state` (host or pod) to a service IP (ClusterIP, external or LB IP). */
export function serviceIPVerdict(
  state: NodeState,
  ip: string,
  port: number,
  proto: Protocol,
): Verdict | undefined {
  const family = ipFamily(ip);
  if (!family) return undefined;
  for (const prog of programs(state)) {
    // An IPVS virtual server only sees packets to a VIP bound on kube-ipvs0.
    if (prog.local && !prog.local(ip)) continue;
    const owners = prog.catalog.byServiceIP.get(ip)?.filter((sp) => sp.family === family);
    if (!prog.local && (!owners || owners.length === 0)) continue;
    const sp = find(owners, family, port, proto);
    if (!sp) {
      // nftables' cluster-ips-check rejects other ports; IPVS binds the VIP locally, so the
      // host stack resets; iptables' KUBE-SERVICES does not match, so the packet is routed away.
      if (prog.backend === 'iptables') continue;
      return {
        kind: 'reject',
        backend: prog.backend,
        reason: `no Service port ${port}/${proto} on ${ip}`,
      };
    }
    return policyVerdict(prog.backend, sp, state.name, 'internalTrafficPolicy', (pol) =>
      sp.clusterIP === ip ? pol.internal : pol.clusterEndpoints,
    );
  }
  return undefined;
}

/** A packet to one of `state`'s own addresses on `port`; `local` when sent from that node. */
export function nodePortVerdict(
  state: NodeState,
  address: string,
  port: number,
  proto: Protocol,
  local: boolean,
): Verdict | undefined {
  const family = ipFamily(address);
  if (!family) return undefined;
  for (const prog of programs(state)) {
    const accepts = prog.nodePortIPs
      ? prog.nodePortIPs.includes(address)
      : scopeAccepts(prog.nodePorts[family], address, prog.allowLoopback);
    if (!accepts) continue;
    const sp = prog.catalog.byNodePort.get(nodePortKey(family, proto, port));
    if (!sp) continue;
    // Traffic from the node itself is short-circuited to the cluster endpoints (nftables/iptables).
    return policyVerdict(prog.backend, sp, state.name, 'externalTrafficPolicy', (pol) =>
      local && prog.backend !== 'ipvs' ? pol.clusterEndpoints : pol.external,
    );
  }
  return undefined;
}
