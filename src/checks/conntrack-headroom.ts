/**
 * Guards against dropped connections around the switch: a node near nf_conntrack_max has no room
 * to spare while its dataplane is replaced (playbook 003 "Connection Tracking"; facts §2
 * conntrack.maxPerCore).
 */
import type { Finding } from '../core/findings.js';
import {
  countNodes,
  entriesOf,
  perPool,
  poolFinding,
  poolParts,
  probesSkipped,
  subGroup,
  type PoolGroup,
} from './group.js';
import { probeProblem } from './support/probe.js';
import { evidenceList, nameList } from './support/text.js';
import type { Check } from './types.js';

/** Above this share of nf_conntrack_max a node has too little room for a change in pattern. */
export const HEADROOM_THRESHOLD = 0.75;

type Reading =
  | { node: string; kind: 'high'; count: number; max: number }
  | { node: string; kind: 'unread'; why: string };

const SYSCTL_COMMAND = 'sysctl net.netfilter.nf_conntrack_count net.netfilter.nf_conntrack_max';

const percent = (count: number, max: number) => `${Math.round((count / max) * 100)}%`;
const figure = (n: number) => n.toLocaleString('en-US');

export const conntrackHeadroom: Check = {
  id: 'conntrack-headroom',
  title: 'Every node has conntrack headroom (below 75% of nf_conntrack_max)',
  run(ctx) {
    const { snapshot } = ctx;
    if (snapshot.nodes.length === 0) return [];
    const skipped = probesSkipped(ctx, conntrackHeadroom.id, {
      what: 'Conntrack headroom not checked',
      detail:
        'nf_conntrack_count and nf_conntrack_max are only visible on the hosts; check nodes with busy connection churn by hand.',
      commands: [SYSCTL_COMMAND],
    });
    if (skipped !== undefined) return [skipped];
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
      const parts = poolParts();
      if (high.length > 0) {
        parts.titles.push(`${countNodes(subGroup(group, high))} above 75% of nf_conntrack_max`);
        const figures = evidenceList(
          high,
          (r) => `${r.node}: ${figure(r.count)} of ${figure(r.max)} (${percent(r.count, r.max)})`,
        );
        parts.details.push(
          `A node close to nf_conntrack_max drops new connections once the table is full. The switch restarts kube-proxy and replaces its rules on every node it moves, so give these nodes headroom beforehand rather than find the limit during the change. ${figures}.`,
        );
        parts.remedies.push(
          'Raise nf_conntrack_max on these nodes before the switch, not after connections start dropping. kube-proxy sets it at start from conntrack.maxPerCore × CPUs (at least conntrack.min) unless maxPerCore is 0, so raise those in the nftables KubeProxyConfiguration, or set maxPerCore: 0 and manage the sysctl yourself.',
        );
      }
      if (unread.length > 0) {
        parts.titles.push(`conntrack count/max not read on ${countNodes(subGroup(group, unread))}`);
        parts.details.push(
          `No figures for ${nameList(unread.map((r) => `${r.node} (${r.why})`))}.`,
        );
      }
      const commands = ['conntrack -S', SYSCTL_COMMAND];
      return high.length > 0
        ? poolFinding(conntrackHeadroom.id, 'warn', group, parts, [
            ...commands,
            'conntrack:\n  maxPerCore: 65536\n  min: 262144',
          ])
        : poolFinding(conntrackHeadroom.id, 'info', group, parts, commands);
    };
    return perPool(ctx, [...readings.keys()], build);
  },
};
