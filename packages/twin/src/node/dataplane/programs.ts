// One sync of a kube-proxy backend: the program (what the rules are built from) that the mode
// writes into the node's dataplane, with NodePort scopes resolved per IP family.

import type { ServiceCatalog } from './catalog.js';
import type { Dataplane, NodePortScope } from './dataplane.js';
import type { HostFacts } from '../host/host.js';
import { isLoopback, type IPFamily } from '../host/ip.js';
import type { KubeProxyConfig } from '../kube-proxy/config.js';
import { localAddresses, resolveNodePortScope } from './node-ports.js';
import type { Version } from '../versions.js';

const families: readonly IPFamily[] = ['IPv4', 'IPv6'];

export function nodePortScopes(
  config: KubeProxyConfig,
  facts: HostFacts,
): { scopes: Record<IPFamily, NodePortScope>; rejectedLoopback: string[] } {
  const rejected: string[] = [];
  const scopes = {} as Record<IPFamily, NodePortScope>;
  for (const family of families) {
    const r = resolveNodePortScope(
      config.mode,
      config.nodePortAddresses,
      config.localhostNodePorts,
      facts,
      family,
    );
    scopes[family] = r.scope;
    rejected.push(...r.rejectedLoopback);
  }
  return { scopes, rejectedLoopback: rejected };
}

/** Writes this sync's rules for `config.mode` into the dataplane (other backends untouched). */
export function programDataplane(
  dp: Dataplane,
  config: KubeProxyConfig,
  facts: HostFacts,
  version: Version,
  catalog: ServiceCatalog,
  now: number,
): Dataplane {
  const { scopes } = nodePortScopes(config, facts);
  const base = { version, catalog, nodeName: facts.nodeName, syncedAt: now, nodePorts: scopes };
  switch (config.mode) {
    case 'nftables':
      return {
        ...dp,
        nft: {
          ...base,
          masqueradeMark: 2 ** config.masqueradeBit,
          masqueradeAll: config.masqueradeAll,
          clusterCIDRs: config.clusterCIDRs,
        },
      };
    case 'ipvs': {
      const nodePortIPs = families.flatMap((f) => {
        const scope = scopes[f];
        const ips = scope.all ? localAddresses(facts, f) : scope.ips;
        return ips.filter((ip) => !isLoopback(ip));
      });
      const ipvs = {
        ...base,
        scheduler: config.ipvsScheduler,
        nodePortIPs,
        masqueradeMark: 2 ** config.masqueradeBit,
        masqueradeAll: config.masqueradeAll,
        clusterCIDRs: config.clusterCIDRs,
      };
      return {
        ...dp,
        ipvsModuleLoaded: true,
        ipvs,
        ipvsDummy: ipvs,
        ipvsIptables: { program: ipvs, trimmed: false },
        ipsets: ipvs,
      };
    }
    case 'iptables':
      return { ...dp, iptables: { ...base, localhostNodePorts: config.localhostNodePorts } };
  }
}
