/**
 * `status` in Slack: where a migration stands, as the terminal's `status` (views/status-text.ts)
 * shows it. The card: nodes by the mode kube-proxy reports, the nodes to look at (label,
 * kube-proxy, last result), runs in flight, the lock's holder and the invariants, each broken one
 * with its repair. What does not fit one message follows in its thread.
 */
import type { ClusterStatus, NodeStatus } from '../core/cluster-status.js';
import type { ChatMessage } from '../ports/chat.js';
import { context, escape, packSections, utcTime } from './blocks.js';

export interface StatusMeta {
  requestedBy: string;
  requestedAt: string;
  /** Whether /proxyMode was read on the nodes (otherwise every mode is unknown). */
  probed: boolean;
}

/** Node names listed per mode before "+N more". */
const MAX_NAMES = 12;
/** Nodes listed one per line (touched by the migration, or unhealthy) before "+N more". */
const MAX_DETAILED = 20;

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

const MODE_EMOJI: Record<string, string> = {
  nftables: ':large_green_circle:',
  ipvs: ':large_blue_circle:',
  iptables: ':white_circle:',
  unknown: ':grey_question:',
};

function byMode(s: ClusterStatus): string {
  const modes = Object.entries(s.byMode).sort(([, a], [, b]) => b - a);
  return modes
    .map(([mode, count]) => {
      const nodes = s.nodes.filter((n) => n.mode === mode);
      const shown = nodes.slice(0, MAX_NAMES).map((n) => escape(n.node));
      const more = nodes.length - shown.length;
      return `${MODE_EMOJI[mode] ?? ':white_circle:'} *${escape(mode)}* · ${count}: ${shown.join(', ')}${more > 0 ? `, +${more} more` : ''}`;
    })
    .join('\n');
}

const touched = (n: NodeStatus): boolean =>
  n.label !== undefined || n.lastResult !== undefined || n.owners.length !== 1 || !n.ready;

function nodeLine(n: NodeStatus): string {
  const owner = n.owners.length === 0 ? 'no kube-proxy' : `kube-proxy ${n.owners.join(' + ')}`;
  return [
    `• *${escape(n.node)}* (${escape(n.pool)})`,
    `mode ${escape(n.mode)}`,
    owner,
    ...(n.ready ? [] : ['not Ready']),
    `label ${n.label === undefined ? '–' : `\`${escape(n.label)}\``}`,
    ...(n.lastResult === undefined ? [] : [`last ${escape(n.lastResult)}`]),
  ].join(' · ');
}

function migrating(s: ClusterStatus): string[] {
  const nodes = s.nodes.filter(touched);
  if (nodes.length === 0) return [];
  const more = nodes.length - MAX_DETAILED;
  return [
    `*Nodes to look at* (${nodes.length}: labelled, with a result, not Ready, or not one kube-proxy)\n${nodes
      .slice(0, MAX_DETAILED)
      .map(nodeLine)
      .join('\n')}${more > 0 ? `\n… and ${more} more` : ''}`,
  ];
}

function runsAndLock(s: ClusterStatus): string {
  const runs =
    s.activeRuns.length === 0
      ? '*Runs in flight:* none'
      : `*Runs in flight* (${s.activeRuns.length})\n${s.activeRuns
          .map(
            (r) =>
              `• \`${escape(r.id)}\` ${escape(r.kind)}${r.node === undefined ? '' : ` ${escape(r.node)}`} · ${escape(r.phase)}`,
          )
          .join('\n')}`;
  const lock =
    s.lock === undefined
      ? ':unlock: *Cluster lock:* free'
      : `:lock: *Cluster lock:* held by \`${escape(s.lock.holder)}\` until ${utcTime(s.lock.expiresAt)}`;
  return `${runs}\n${lock}`;
}

function invariants(s: ClusterStatus): string[] {
  if (s.violations.length === 0) return [':white_check_mark: *Invariants:* all hold'];
  return [
    `:x: *Invariants: ${s.violations.length} broken*`,
    ...s.violations.map(
      (v) =>
        `*\`${escape(v.invariant)}\`* · ${escape(v.subject)}: ${escape(v.message)}\n:wrench: ${escape(v.repair)}`,
    ),
  ];
}

/** The card first; any further messages go in its thread. */
export function statusMessages(s: ClusterStatus, meta: StatusMeta): ChatMessage[] {
  const modes = Object.entries(s.byMode)
    .map(([mode, n]) => `${n} ${mode}`)
    .join(', ');
  const title =
    `:bar_chart: *Status · ${escape(s.cluster)}* · ${plural(s.nodes.length, 'node', 'nodes')} (${escape(modes)})` +
    `${s.inProgress ? ' · migration in progress' : ' · no migration in progress'}` +
    `${s.violations.length === 0 ? '' : ` · :x: ${plural(s.violations.length, 'invariant', 'invariants')} broken`}`;
  const fallback = `Status of ${s.cluster}: ${s.nodes.length} nodes (${modes}), ${s.violations.length === 0 ? 'invariants hold' : `${s.violations.length} invariants broken`}`;
  const messages = packSections(
    title,
    [byMode(s), ...migrating(s), runsAndLock(s), ...invariants(s)],
    fallback,
  );
  const note = context(
    `requested by <@${escape(meta.requestedBy)}> · ${utcTime(meta.requestedAt)} · ${
      meta.probed
        ? 'modes read on each node (/proxyMode), not from labels'
        : 'modes not read (no probe): unknown'
    }`,
  );
  const [first, ...rest] = messages;
  if (first === undefined) return [];
  return [{ ...first, blocks: [...(first.blocks ?? []), note] }, ...rest];
}
