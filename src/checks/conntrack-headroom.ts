/**
 * Guards against dropped connections after the switch: conntrack pressure moves when IPVS's own
 * connection table goes away (playbook 003 "Connection Tracking"; facts §2 conntrack.maxPerCore).
 */
import { finding, type Finding } from '../core/findings.js';
import { countNodes, entriesOf, perPool, subGroup, type PoolGroup } from './group.js';
import { probeProblem } from './support/probe.js';
import { evidenceList, nameList, plural } from './support/text.js';
import type { Check } from './types.js';

/** Above this share of nf_conntrack_max a node has too little room for a change in pattern. */
export const HEADROOM_THRESHOLD = 0.75;

type Reading =
  | { node: string; kind: 'high'; count: number; max: number }
  | { node: string; kind: 'unread'; why: string };

const percent = (count: number, max: number) => `${Math.round((count / max) * 100)}%`;
const figure = (n: number) => n.toLocaleString('en-US');

export const conntrackHeadroom: Check = {
  id: 'conntrack-headroom',
  title: 'Every node has conntrack headroom (below 75% of nf_conntrack_max)',
  run(ctx) {
    const { snapshot } = ctx;
    if (snapshot.nodes.length === 0) return [];
    if (snapshot.nodeFacts.length === 0) {
      return [
        finding({
          check: conntrackHeadroom.id,
          severity: 'info',
          scope: { kind: 'cluster', name: snapshot.cluster },
          title: `Conntrack headroom not checked: node probes were skipped on ${plural(snapshot.nodes.length, 'node')}`,
          detail:
            'nf_conntrack_count and nf_conntrack_max are only visible on the hosts; check nodes with busy connection churn by hand.',
          commands: ['sysctl net.netfilter.nf_conntrack_count net.netfilter.nf_conntrack_max'],
        }),
      ];
    }
    const readings = new Map<string, Reading>();
    for (const node of snapshot.nodes) {
      const name = node.metadata.name;
      const facts = ctx.factsOf(name);
      const count = facts?.conntrack?.count;
      const max = facts?.conntrack?.max;
      if (count !== undefined && max !== undefined && max > 0) {
        if (count / max > HEADROOM_THRESHOLD)
          readings.set(name, { node: name, kind: 'high', count, max });
      } else {
        const why =
          facts === undefined
            ? 'not probed'
            : max === 0
              ? 'nf_conntrack_max is 0'
              : (probeProblem(facts, ['conntrack', 'sysctl']) ?? 'count or max not read');
        readings.set(name, { node: name, kind: 'unread', why });
      }
    }
    const build = (group: PoolGroup): Finding => {
      const entries = entriesOf(group, readings);
      const high = entries.filter((r) => r.kind === 'high');
      const unread = entries.filter((r) => r.kind === 'unread');
      const titles: string[] = [];
      const details: string[] = [];
      if (high.length > 0) {
        titles.push(`${countNodes(subGroup(group, high))} above 75% of nf_conntrack_max`);
        const figures = evidenceList(
          high,
          (r) => `${r.node}: ${figure(r.count)} of ${figure(r.max)} (${percent(r.count, r.max)})`,
        );
        details.push(
          `Under IPVS part of the connection bookkeeping lives in ip_vs's own table; nftables mode puts everything through the general conntrack table, so high-churn nodes can hit nf_conntrack_max and drop new connections after the switch. ${figures}.`,
        );
      }
      if (unread.length > 0) {
        titles.push(`conntrack count/max not read on ${countNodes(subGroup(group, unread))}`);
        details.push(`No figures for ${nameList(unread.map((r) => `${r.node} (${r.why})`))}.`);
      }
      const base = {
        check: conntrackHeadroom.id,
        scope: { kind: 'pool' as const, name: group.pool },
        subjects: group.nodes,
        title: titles.join('; '),
        detail: details.join(' '),
        commands: [
          'conntrack -S',
          'sysctl net.netfilter.nf_conntrack_count net.netfilter.nf_conntrack_max',
        ],
      };
      return high.length > 0
        ? finding({
            ...base,
            severity: 'warn',
            remedy:
              'Raise nf_conntrack_max on these nodes before the switch, not after connections start dropping. kube-proxy sets it at start from conntrack.maxPerCore × CPUs (at least conntrack.min) unless maxPerCore is 0, so raise those in the nftables KubeProxyConfiguration, or set maxPerCore: 0 and manage the sysctl yourself.',
            commands: [...base.commands, 'conntrack:\n  maxPerCore: 65536\n  min: 262144'],
          })
        : finding({ ...base, severity: 'info' });
    };
    return perPool(ctx, [...readings.keys()], build);
  },
};
