/**
 * Guards against callers that reach NodePorts on an address of a node other than its primary IP,
 * which nftables' default "primary" stops answering (facts §8; playbook 000 trap 6, playbook 001
 * pre-flight 3): a hardware load balancer pointed at a DMZ NIC, a keepalived VIP. The host's own
 * addresses come from the node probe (`ip -j addr`), so addresses kubelet does not report are
 * seen; nodes that were not probed fall back to their Node object's addresses.
 */
import { finding, type Finding } from '../core/findings.js';
import { keptByPrimary, kubeProxyNodeIPs, type HostAddress } from '../core/host-addresses.js';
import { ipFamily } from '../core/ip.js';
import type { KubeNode } from '../core/kube.js';
import { countNodes, perPool, type PoolGroup } from './group.js';
import { currentConfig } from './support/kube-proxy.js';
import {
  KEEP_ALL_SNIPPET,
  NODE_ADDRESSES_COMMAND,
  nodePortAddressesSetting,
} from './support/node-ports.js';
import { probeProblem } from './support/probe.js';
import { nodePortServices } from './support/services.js';
import { evidenceList, plural } from './support/text.js';
import type { Check, CheckContext } from './types.js';

interface Address {
  type: string;
  address: string;
}

/** An address nftables' `primary` would not answer NodePorts on. */
interface AtRisk {
  address: string;
  /** The host interface holding it; undefined when only the Node object was read. */
  interface?: string;
  /** The Node object's address type for it (InternalIP, ExternalIP); undefined when absent. */
  reported?: string;
}

const HOST_ADDRESSES_COMMAND = 'ip -br addr';

/** Addresses on the Node object beyond the ones kube-proxy calls primary (GetNodeHostIPs). */
export function secondaryAddresses(node: KubeNode, bindAddress?: string): Address[] {
  const nodeIPs = kubeProxyNodeIPs(node, bindAddress);
  const seen = new Set<string>();
  return (node.status?.addresses ?? [])
    .filter((a) => a.type === 'InternalIP' || a.type === 'ExternalIP')
    .sort((a, b) => (a.type === b.type ? 0 : a.type === 'InternalIP' ? -1 : 1))
    .filter((a) => {
      if (ipFamily(a.address) === undefined || keptByPrimary(a.address, nodeIPs)) return false;
      if (seen.has(a.address)) return false;
      seen.add(a.address);
      return true;
    });
}

/** The host's own addresses `primary` would not keep, each with where the Node object has it. */
export function hostAddressesAtRisk(
  node: KubeNode,
  host: readonly HostAddress[],
  bindAddress?: string,
): AtRisk[] {
  const nodeIPs = kubeProxyNodeIPs(node, bindAddress);
  const reported = new Map((node.status?.addresses ?? []).map((a) => [a.address, a.type]));
  return host
    .filter((a) => !keptByPrimary(a.address, nodeIPs))
    .map((a) => {
      const type = reported.get(a.address);
      return {
        address: a.address,
        interface: a.interface,
        ...(type === undefined ? {} : { reported: type }),
      };
    });
}

function describeAddress(a: AtRisk): string {
  const where = a.interface === undefined ? [] : [`on ${a.interface}`];
  const source =
    a.interface === undefined
      ? [`${a.reported ?? 'listed'} on the Node object; host not read`]
      : [a.reported === undefined ? 'not on the Node object' : `${a.reported} on the Node object`];
  return `${a.address} (${[...where, ...source].join(', ')})`;
}

function primaryText(node: KubeNode | undefined, bind: string | undefined): string {
  if (node === undefined) return 'none';
  const ips = Object.values(kubeProxyNodeIPs(node, bind));
  return ips.length === 0 ? 'none' : ips.join(', ');
}

interface Reading {
  atRisk: Map<string, AtRisk[]>;
  /** Probed nodes whose addresses could not be read, with why. */
  unknown: Map<string, string>;
  /** Nodes whose host addresses were read. */
  read: number;
  /** Nodes not probed at all (probes skipped, or only other nodes probed). */
  unprobed: number;
}

function readNodes(ctx: CheckContext, bind: string | undefined): Reading {
  const reading: Reading = { atRisk: new Map(), unknown: new Map(), read: 0, unprobed: 0 };
  for (const node of ctx.snapshot.nodes) {
    const name = node.metadata.name;
    const facts = ctx.factsOf(name);
    let risky: AtRisk[];
    if (facts?.addresses !== undefined) {
      reading.read += 1;
      risky = hostAddressesAtRisk(node, facts.addresses, bind);
    } else if (facts !== undefined) {
      reading.unknown.set(
        name,
        probeProblem(facts, ['address']) ?? 'the probe returned no addresses',
      );
      // What the Node object shows is still known; the host may hold more.
      risky = secondaryAddresses(node, bind).map((a) => ({ address: a.address, reported: a.type }));
    } else {
      reading.unprobed += 1;
      risky = secondaryAddresses(node, bind).map((a) => ({ address: a.address, reported: a.type }));
    }
    if (risky.length > 0) reading.atRisk.set(name, risky);
  }
  return reading;
}

export const nodeSecondaryAddresses: Check = {
  id: 'node-secondary-addresses',
  title: 'No NodePort caller depends on a secondary node address',
  run(ctx) {
    const setting = nodePortAddressesSetting(ctx);
    const services = nodePortServices(ctx.snapshot.services);
    const exposed = setting.kind !== 'set' && services.length > 0;
    const bind = currentConfig(ctx)?.bindAddress;
    const { atRisk, unknown, read, unprobed } = readNodes(ctx, bind);
    const nodeByName = new Map(ctx.snapshot.nodes.map((n) => [n.metadata.name, n]));

    const why =
      setting.kind === 'set'
        ? `nodePortAddresses is set explicitly (${setting.values.join(', ')}) in ${setting.where}, so NodePorts answer on the same addresses in both modes.`
        : services.length === 0
          ? 'No Service opens a NodePort today, so nothing answers on these addresses yet.'
          : `nodePortAddresses is ${setting.kind === 'unset' ? 'unset' : 'unknown'} and ${plural(services.length, 'NodePort/LoadBalancer Service')} ${services.length === 1 ? 'exists' : 'exist'}: IPVS answers them on every local address (kube-ipvs0's aside), nftables only on "primary", the node IP of each family (the first InternalIP, else ExternalIP, or bindAddress; PR #123105).`;
    const sources =
      unprobed === 0
        ? `The host addresses were read with \`ip -j addr\` on ${plural(read, 'node')} (loopback, link-local, kube-ipvs0, NodeLocal DNSCache and CNI interfaces left out).`
        : read === 0
          ? `The hosts were not probed, so only the Node objects’ addresses were read: addresses that exist only on the host (a VIP manager’s address, an extra NIC kubelet does not report) are not visible here; check \`${HOST_ADDRESSES_COMMAND}\` on the hosts behind hardware load balancers.`
          : `The host addresses were read with \`ip -j addr\` on ${plural(read, 'node')}; on the ${plural(unprobed, 'node')} not probed only the Node objects’ addresses were read.`;
    const commands = [HOST_ADDRESSES_COMMAND, NODE_ADDRESSES_COMMAND, KEEP_ALL_SNIPPET];
    const keepAll = `keep IPVS behaviour with ${KEEP_ALL_SNIPPET} in the nftables KubeProxyConfiguration (the canary’s configuration sets exactly this, so the canary keeps answering on them)`;

    const build = (group: PoolGroup): Finding => {
      const evidence = evidenceList(
        group.nodes,
        (n) =>
          `${n}: ${(atRisk.get(n) ?? []).map(describeAddress).join(', ')}; primary ${primaryText(nodeByName.get(n), bind)}`,
      );
      return finding({
        check: nodeSecondaryAddresses.id,
        severity: exposed ? 'warn' : 'info',
        scope: { kind: 'pool', name: group.pool },
        subjects: group.nodes,
        title: `${countNodes(group)} have addresses besides the primary${exposed ? ' that NodePorts stop answering on in nftables mode' : ''}`,
        detail: `${why} Addresses outside "primary": ${evidence}. ${sources} An ExternalIP that the cloud translates to the primary address (AWS, GCP and Azure public IPs) is not on the host and not affected; one bound on the host is.`,
        ...(exposed
          ? {
              remedy: `Find who calls NodePorts on these addresses (hardware load balancer pools, monitoring, partners) and either move them to the primary address or ${keepAll}.`,
            }
          : {}),
        commands,
      });
    };

    const findings = perPool(ctx, [...atRisk.keys()], build);
    if (exposed && unknown.size > 0) {
      // Unknown never passes: a node whose addresses could not be read may hold the DMZ NIC.
      findings.push(
        ...perPool(ctx, [...unknown.keys()], (group) =>
          finding({
            check: nodeSecondaryAddresses.id,
            severity: 'warn',
            scope: { kind: 'pool', name: group.pool },
            subjects: group.nodes,
            title: `${countNodes(group)}: host addresses could not be read, so whether NodePorts stop answering on some of them is unknown`,
            detail: `${why} ${evidenceList(group.nodes, (n) => `${n}: ${unknown.get(n) ?? 'not read'}`)}.`,
            remedy: `Make the nodes probeable and run the pre-flight again, or read \`${HOST_ADDRESSES_COMMAND}\` on them yourself; until then ${keepAll}.`,
            commands,
          }),
        ),
      );
    }
    if (findings.length > 0 || !exposed) return findings;
    return [
      finding({
        check: nodeSecondaryAddresses.id,
        severity: 'info',
        scope: { kind: 'cluster', name: ctx.snapshot.cluster },
        title:
          read > 0 && unprobed === 0
            ? 'No node holds an address besides the primary'
            : 'No Node object lists a secondary address',
        detail: `${why} ${sources}`,
        commands: [NODE_ADDRESSES_COMMAND, HOST_ADDRESSES_COMMAND],
      }),
    ];
  },
};
