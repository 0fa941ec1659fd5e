/**
 * Guards against callers that reach NodePorts on a node's secondary address, which nftables' default
 * "primary" stops answering (facts §8; playbook 000 trap 6, playbook 001 pre-flight 3). Informational:
 * nodeport-addresses warns about the same root cause; this names the addresses at risk.
 */
import { finding, type Finding } from '../core/findings.js';
import type { KubeNode } from '../core/kube.js';
import { countNodes, perPool, type PoolGroup } from './group.js';
import {
  KEEP_ALL_SNIPPET,
  NODE_ADDRESSES_COMMAND,
  nodePortAddressesSetting,
} from './support/node-ports.js';
import { nodePortServices } from './support/services.js';
import { evidenceList } from './support/text.js';
import type { Check } from './types.js';

interface Address {
  type: string;
  address: string;
}

const isIPv4 = (ip: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(ip);
const isIPv6 = (ip: string) => ip.includes(':') && /^[0-9a-fA-F:.]+$/.test(ip);

/**
 * Addresses beyond the ones kube-proxy calls primary. Mirrors GetNodeHostIPs: InternalIPs then
 * ExternalIPs, the first of them plus the first of the other family; Hostname/DNS entries are not
 * addresses.
 */
export function secondaryAddresses(node: KubeNode): Address[] {
  const all = node.status?.addresses ?? [];
  const ips = [
    ...all.filter((a) => a.type === 'InternalIP'),
    ...all.filter((a) => a.type === 'ExternalIP'),
  ].filter((a) => isIPv4(a.address) || isIPv6(a.address));
  const first = ips[0];
  if (first === undefined) return [];
  const otherFamily = ips.find((a) => isIPv6(a.address) !== isIPv6(first.address));
  const primary = new Set([first.address, otherFamily?.address]);
  const seen = new Set<string>();
  return ips.filter((a) => {
    if (primary.has(a.address) || seen.has(a.address)) return false;
    seen.add(a.address);
    return true;
  });
}

export const nodeSecondaryAddresses: Check = {
  id: 'node-secondary-addresses',
  title: 'No NodePort caller depends on a secondary node address',
  run(ctx) {
    const setting = nodePortAddressesSetting(ctx);
    const services = nodePortServices(ctx.snapshot.services);
    const exposed = setting.kind !== 'set' && services.length > 0;
    const byNode = new Map<string, Address[]>();
    for (const node of ctx.snapshot.nodes) {
      const extra = secondaryAddresses(node);
      if (extra.length > 0) byNode.set(node.metadata.name, extra);
    }
    const caveat =
      'Only the Node objects’ addresses were read: addresses that exist only on the host (a VIP manager’s address, an extra NIC kubelet does not report) are not visible here, so check `ip -br addr` on the hosts behind hardware load balancers.';
    const why =
      setting.kind === 'set'
        ? `nodePortAddresses is set explicitly (${setting.values.join(', ')}) in ${setting.where}, so NodePorts answer on the same addresses in both modes.`
        : services.length === 0
          ? 'No Service opens a NodePort today, so nothing answers on these addresses yet.'
          : `nodePortAddresses is ${setting.kind === 'unset' ? 'unset' : 'unknown'} and ${services.length} NodePort/LoadBalancer Services exist: IPVS answers them on every local address, nftables only on the primary IPs (PR #123105).`;

    if (byNode.size === 0) {
      if (!exposed) return [];
      return [
        finding({
          check: nodeSecondaryAddresses.id,
          severity: 'info',
          scope: { kind: 'cluster', name: ctx.snapshot.cluster },
          title: 'No Node object lists a secondary address',
          detail: `${why} ${caveat}`,
          commands: [NODE_ADDRESSES_COMMAND, 'ip -br addr'],
        }),
      ];
    }

    const build = (group: PoolGroup): Finding => {
      const evidence = evidenceList(
        group.nodes,
        (n) => `${n}: ${(byNode.get(n) ?? []).map((a) => `${a.address} (${a.type})`).join(', ')}`,
      );
      const detail = `${why} Secondary addresses: ${evidence}. An ExternalIP that the cloud translates to the primary address (AWS, GCP and Azure public IPs) is not affected; one bound on the host is. ${caveat}`;
      // Informational even when exposed: nodeport-addresses warns about the same root cause.
      return finding({
        check: nodeSecondaryAddresses.id,
        severity: 'info',
        scope: { kind: 'pool', name: group.pool },
        subjects: group.nodes,
        title: `${countNodes(group)} have addresses besides the primary${exposed ? ' that NodePorts stop answering on in nftables mode' : ''}`,
        detail: exposed
          ? `${detail} See nodeport-addresses, which warns about this; these are the addresses at risk.`
          : detail,
        ...(exposed
          ? {
              remedy: `See nodeport-addresses: find who calls NodePorts on these addresses (hardware load balancer pools, monitoring, partners) and either move them to the primary address or keep IPVS behaviour with ${KEEP_ALL_SNIPPET} in the nftables KubeProxyConfiguration.`,
            }
          : {}),
        commands: [NODE_ADDRESSES_COMMAND, 'ip -br addr', KEEP_ALL_SNIPPET],
      });
    };
    return perPool(ctx, [...byNode.keys()], build);
  },
};
