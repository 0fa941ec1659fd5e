/**
 * Every node probe, by id, and the sets each phase runs: pre-flight (the facts checks read),
 * the rollback reference captured before a cutover, and what the cutover and rollback
 * verifications read afterwards. The engine runs a set in one probe pod per node.
 */
import { conntrackStatsProbe } from './conntrack-stats.js';
import { curlClusterIPProbe } from './curl-clusterip.js';
import { curlNodePortProbe } from './curl-nodeport.js';
import { healthzProbe, livezProbe } from './healthz.js';
import { hostAddressesProbe } from './host-addresses.js';
import { iptablesSaveProbe } from './iptables-save.js';
import { ipvsadmListProbe } from './ipvsadm-list.js';
import { ipvsadmSaveProbe } from './ipvsadm-save.js';
import { kubeIpvs0Probe } from './kube-ipvs0.js';
import { metricsProbe } from './metrics.js';
import { nftRulesetProbe } from './nft-ruleset.js';
import { nftTableIp6Probe, nftTableProbe } from './nft-table.js';
import { nftVersionProbe } from './nft-version.js';
import { proxyModeNodeIPProbe, proxyModeProbe } from './proxy-mode.js';
import { readProbe, type ProbeRead } from './read.js';
import { conntrackCountProbe, conntrackMaxProbe, routeLocalnetProbe } from './sysctl.js';
import type { Probe, ProbeContext, ProbeResult } from './types.js';
import { unameProbe } from './uname-r.js';

/** Probes that need only the node (key = probe id). */
export const nodeProbes = {
  'uname-r': unameProbe,
  'nft-version': nftVersionProbe,
  'conntrack-stats': conntrackStatsProbe,
  'sysctl-conntrack-count': conntrackCountProbe,
  'sysctl-conntrack-max': conntrackMaxProbe,
  'sysctl-route-localnet': routeLocalnetProbe,
  'proxy-mode': proxyModeProbe,
  'proxy-mode-node-ip': proxyModeNodeIPProbe,
  'nft-table': nftTableProbe,
  'nft-table-ip6': nftTableIp6Probe,
  'nft-ruleset': nftRulesetProbe,
  'ipvsadm-list': ipvsadmListProbe,
  'ipvsadm-save': ipvsadmSaveProbe,
  'iptables-save': iptablesSaveProbe,
  'kube-ipvs0': kubeIpvs0Probe,
  'host-addresses': hostAddressesProbe,
  healthz: healthzProbe,
  livez: livezProbe,
  metrics: metricsProbe,
} as const;

/** Probes aimed at an address (TargetContext): run once per target. */
export const targetProbes = {
  'curl-clusterip': curlClusterIPProbe,
  'curl-nodeport': curlNodePortProbe,
} as const;

export type NodeProbeId = keyof typeof nodeProbes;
export type ProbeValue<K extends NodeProbeId> =
  (typeof nodeProbes)[K] extends Probe<infer T, ProbeContext> ? T : never;

/** The latest read of each node probe on one node, keyed by probe id. */
export type ProbeReads = { [K in NodeProbeId]?: ProbeRead<ProbeValue<K>> };

/** What pre-flight reads on every node (the facts in NodeFacts). */
export const preflightProbes = [
  'uname-r',
  'nft-version',
  'conntrack-stats',
  'sysctl-conntrack-count',
  'sysctl-conntrack-max',
  'host-addresses',
  'proxy-mode',
  'proxy-mode-node-ip',
] as const satisfies readonly NodeProbeId[];

/** Captured before a cutover: what the node looked like, to compare and to restore by hand. */
export const referenceProbes = [
  'ipvsadm-save',
  'iptables-save',
  'nft-ruleset',
  'host-addresses',
  'metrics',
] as const satisfies readonly NodeProbeId[];

/** Read after a cutover (metrics twice, some seconds apart). */
export const nftablesProbes = [
  'nft-table',
  'nft-table-ip6',
  'ipvsadm-list',
  'kube-ipvs0',
  'host-addresses',
  'healthz',
  'livez',
  'metrics',
] as const satisfies readonly NodeProbeId[];

/** Read after a rollback. */
export const ipvsProbes = [
  'ipvsadm-list',
  'kube-ipvs0',
  'nft-table',
  'nft-table-ip6',
  'healthz',
  'livez',
] as const satisfies readonly NodeProbeId[];

/** The commands to run for a set on this node, in order, skipping probes that do not apply. */
export function probePlan(
  ids: readonly NodeProbeId[],
  ctx: ProbeContext,
): { id: NodeProbeId; argv: string[] }[] {
  return ids
    .filter((id) => (nodeProbes[id] as Probe<unknown>).applies?.(ctx) ?? true)
    .map((id) => ({ id, argv: nodeProbes[id].argv(ctx) }));
}

/** The read of a node probe by id, typed by that probe's value (for building ProbeReads). */
export function readNodeProbe<K extends NodeProbeId>(
  id: K,
  argv: readonly string[],
  result: ProbeResult,
  at: string,
): ProbeRead<ProbeValue<K>> {
  const probe = nodeProbes[id] as unknown as Probe<ProbeValue<K>, ProbeContext>;
  return readProbe(probe, argv, result, at);
}

/** Files a read under its probe id. */
export function withRead<K extends NodeProbeId>(
  reads: ProbeReads,
  id: K,
  read: ProbeRead<ProbeValue<K>>,
): ProbeReads {
  return { ...reads, [id]: read };
}
