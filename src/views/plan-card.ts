/**
 * The plan in Slack: a summary card in the channel (cluster, node and pool, the hash people
 * approve, the canary verdict, what will happen numbered, the dry run's answer, the
 * configuration carried and dropped, the suggested order condensed) and the unified diffs in
 * its thread: code blocks when they are short, one `.diff` file when they are not (a wall of
 * YAML in a thread is unreadable and soon over Slack's limits).
 */
import type { KnownBlock } from '@slack/types';
import type { OrderedNode } from '../core/node-order.js';
import { dryRunRefusals, type PlanReport } from '../core/plan-result.js';
import type { ChatMessage, FileUpload } from '../ports/chat.js';
import {
  BUDGET,
  blockTextLength,
  context,
  duration,
  escape,
  packSections,
  paginate,
  section,
  truncate,
  utcTime,
} from './blocks.js';

export interface PlanMeta {
  requestedBy: string;
  requestedAt: string;
  tookMs: number;
}

/** Diffs up to this many lines in all go in the thread as code blocks; more go in a file. */
export const MAX_INLINE_DIFF_LINES = 40;
/** Names the card shows per group of the suggested order before "+N more". */
const MAX_NAMES = 8;
const MAX_LINE = 400;

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function names(nodes: readonly OrderedNode[], withPool: boolean): string {
  const shown = nodes
    .slice(0, MAX_NAMES)
    .map((o) => `${escape(o.node)}${withPool ? ` (${escape(o.pool)})` : ''}`);
  const more = nodes.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? `, +${more} more` : ''}`;
}

/** The check ids that block a node: `kernel-version: 1 of 1 node …` → `kernel-version`. */
const blockingChecks = (o: OrderedNode): string[] => [
  ...new Set(o.blockedBy.map((b) => b.split(':')[0] ?? b)),
];

/** The suggested order as three lines: the canaries, the rest by pool, the blocked and why. */
export function condensedOrder(order: readonly OrderedNode[]): string[] {
  const canaries = order.filter((o) => o.step === 'canary');
  const rest = order.filter((o) => o.step === 'pool');
  const blocked = order.filter((o) => o.step === 'blocked');
  const byCheck = new Map<string, OrderedNode[]>();
  for (const o of blocked) {
    for (const check of blockingChecks(o)) byCheck.set(check, [...(byCheck.get(check) ?? []), o]);
  }
  return [
    canaries.length === 0
      ? '1. no node can be the first canary'
      : `1. one canary per pool: ${names(canaries, true)}`,
    ...(rest.length === 0
      ? []
      : [
          `2. then the rest of each pool (${plural(rest.length, 'node', 'nodes')}): ${names(rest, false)}`,
        ]),
    ...(blocked.length === 0
      ? []
      : [
          `:no_entry: not yet, blocked (${plural(blocked.length, 'node', 'nodes')}): ${[...byCheck]
            .map(([check, nodes]) => `${names(nodes, false)} by \`${escape(check)}\``)
            .join('; ')}`,
        ]),
  ];
}

function verdict(report: PlanReport): string {
  const { canary } = report;
  if (canary.allowed) {
    return [
      `:white_check_mark: *Canary allowed.* ${escape(canary.reason)}`,
      ...canary.warnings.map((w) => `:warning: ${escape(w)}`),
    ].join('\n');
  }
  const commands = canary.commands.map(escape).join('\n');
  return [
    `:no_entry: *Canary refused: a cutover of this cluster will be refused.* ${escape(canary.reason)}`,
    ...(canary.remedy === undefined ? [] : [escape(canary.remedy)]),
    ...(commands === '' ? [] : [`\`\`\`${truncate(commands, BUDGET.sectionText - 1200)}\`\`\``]),
  ].join('\n');
}

function bullets(title: string, items: readonly string[]): string[] {
  if (items.length === 0) return [];
  return [`*${title}*\n${items.map((i) => `• ${escape(truncate(i, MAX_LINE))}`).join('\n')}`];
}

function headline(report: PlanReport): string {
  const nodePool = report.order.find((o) => o.node === report.node)?.pool;
  const node =
    report.node === undefined
      ? ' · shared objects only (name a node for its label steps)'
      : ` · node *${escape(report.node)}*${nodePool === undefined ? '' : ` (pool ${escape(nodePool)})`}`;
  return `:clipboard: *Plan \`${escape(report.hash)}\` · ${escape(report.cluster)}*${node} · ${escape(report.platform)}`;
}

export function planCard(report: PlanReport, meta: PlanMeta): ChatMessage {
  const refusals = dryRunRefusals(report);
  const texts = [
    headline(report),
    verdict(report),
    `*What will happen*\n${report.actions
      .map((a, i) => `${i + 1}. ${escape(truncate(a, MAX_LINE))}`)
      .join('\n')}`,
    refusals.length === 0
      ? `:white_check_mark: *Dry run:* ${escape(String(report.dryRun))}: nothing was persisted.`
      : `:x: *Dry run refused* (${plural(refusals.length, 'write', 'writes')}): a cutover would stop here.\n${refusals
          .map((r) => `• ${escape(truncate(r, MAX_LINE))}`)
          .join('\n')}`,
    ...bullets('Configuration carried into nftables', report.changes),
    ...bullets('Not carried (no nftables equivalent)', report.dropped),
    `*Suggested order* (${plural(report.order.length, 'node', 'nodes')})\n${condensedOrder(report.order).join('\n')}`,
  ];
  const blocks: KnownBlock[] = [
    ...texts.map((t) => section(truncate(t, BUDGET.sectionText))),
    context(
      `plan \`${escape(report.hash)}\` · requested by <@${escape(meta.requestedBy)}> · ${utcTime(meta.requestedAt)} · took ${duration(meta.tookMs)} · nothing was written · diffs in the thread`,
    ),
  ];
  // Long action or finding texts can add up: keep the card under a message's block text.
  while (blockTextLength(blocks) > BUDGET.messageText && blocks.length > 2) blocks.splice(-2, 1);
  const canary = report.canary.allowed ? 'canary allowed' : 'canary refused';
  const dryRun = refusals.length === 0 ? 'dry run accepted' : 'dry run refused';
  return {
    text: `Plan ${report.hash} for ${report.cluster}${report.node === undefined ? '' : `, node ${report.node}`}: ${canary}, ${plural(report.actions.length, 'action', 'actions')}, ${dryRun}`,
    blocks,
  };
}

/** The thread under the card, in posting order: the diffs (replies or a file), then the order. */
export interface PlanThread {
  /** The diffs as code blocks, when they are short. */
  diffReplies: ChatMessage[];
  /** The diffs as one file, when they are too long for code blocks. */
  file?: FileUpload;
  /** Every node of the suggested order, when the card left some out. */
  orderReplies: ChatMessage[];
}

/** The diffs as one unified-diff file, each object's diff after a `#` line naming it. */
export function planDiffFile(report: PlanReport): string {
  return `${report.diffs
    .map((d) => `# ${d.title}\n${d.diff === '' ? '# (no change)\n' : d.diff}`)
    .join('\n')}`;
}

export function planThread(report: PlanReport): PlanThread {
  const fallback = `Diffs of plan ${report.hash} for ${report.cluster}`;
  const title = `*Diffs of plan \`${escape(report.hash)}\`* · ${escape(report.cluster)} · ${plural(report.diffs.length, 'object', 'objects')} (current → planned)`;
  const lines = report.diffs.reduce((n, d) => n + d.diff.split('\n').length, 0);
  const texts = report.diffs.map(
    (d) =>
      `*${escape(truncate(d.title, MAX_LINE))}*\n${d.diff === '' ? '_(no change)_' : `\`\`\`${escape(d.diff.trimEnd())}\`\`\``}`,
  );
  const inline = packSections(title, texts, fallback);
  // Code blocks only when short, whole (never cut) and in one message.
  const fits =
    lines <= MAX_INLINE_DIFF_LINES &&
    inline.length === 1 &&
    texts.every((t) => t.length <= BUDGET.sectionText);
  const order = report.order;
  // The card condenses the order; when it left names out, the thread has every node.
  const orderReplies =
    order.length <= MAX_NAMES
      ? []
      : paginate(
          `*Suggested order* · ${escape(report.cluster)} · ${plural(order.length, 'node', 'nodes')}`,
          order.map(
            (o, i) =>
              `${i + 1}. ${escape(o.node)} (${escape(o.pool)}) ${o.step}${o.blockedBy.length === 0 ? '' : `: blocked by ${escape(o.blockedBy.join('; '))}`}`,
          ),
          `Suggested order for ${report.cluster}`,
        );
  if (fits) return { diffReplies: inline, orderReplies };
  return {
    diffReplies: [],
    orderReplies,
    file: {
      filename: `plan-${report.cluster}-${report.hash}.diff`,
      title: `Plan ${report.hash} · ${report.cluster} · diffs (current → planned)`,
      content: planDiffFile(report),
      comment: `Diffs of plan ${report.hash} for ${report.cluster}: ${plural(report.diffs.length, 'object', 'objects')}, ${plural(lines, 'line', 'lines')} (current → planned).`,
    },
  };
}
