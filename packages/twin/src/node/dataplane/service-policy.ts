// CategorizeEndpoints for one node: which endpoints a Service port's ClusterIP (internal) and
// NodePort/external IPs (external) send to from this node, given the traffic policies. Shared by
// every backend, so nftables, IPVS, iptables and reachability agree.

import { usableEndpoints, type CatalogEndpoint, type CatalogServicePort } from './catalog.js';

export interface PortPolicy {
  readonly clusterEndpoints: readonly CatalogEndpoint[];
  readonly localEndpoints: readonly CatalogEndpoint[];
  /** Any usable endpoint on any node. */
  readonly hasEndpoints: boolean;
  readonly internal: readonly CatalogEndpoint[];
  readonly external: readonly CatalogEndpoint[];
}

export function portPolicy(sp: CatalogServicePort, nodeName: string): PortPolicy {
  const usable = usableEndpoints(sp);
  const local = usable.filter((e) => e.nodeName === nodeName);
  return {
    clusterEndpoints: usable,
    localEndpoints: local,
    hasEndpoints: usable.length > 0,
    internal: sp.internalPolicyLocal ? local : usable,
    external: sp.externalPolicyLocal ? local : usable,
  };
}

/** Whether the port has externally reachable destinations (NodePort, external or LB IPs). */
export function externallyAccessible(sp: CatalogServicePort): boolean {
  return sp.nodePort !== undefined || sp.externalIPs.length > 0 || sp.loadBalancerIPs.length > 0;
}
