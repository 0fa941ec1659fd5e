/**
 * The pre-flight report in Slack: a summary card (cluster, version, platform, mode, counts, the
 * blockers first) as the run's parent message, details in thread replies per pool and then
 * cluster-wide, and the whole report as a Markdown file when it would not fit.
 */
import type { KnownBlock } from '@slack/types';
import type { ClusterOverview } from '../core/cluster-overview.js';
import type { Finding, Severity } from '../core/findings.js';
import { groupFindings, type PreflightReport } from '../core/report.js';
import type { ChatMessage } from '../ports/chat.js';
import { context, duration, escape, packSections, section } from './blocks.js';
import {
  findingMarkdown,
  findingMrkdwn,
  findingOneLine,
  severityEmoji,
  severityWord,
} from './finding-text.js';
import { coverageNote } from './probe-coverage.js';

function coverageNoteLines(report: PreflightReport): string[] {
  const note = coverageNote(report);
  return note === undefined ? [] : [`**${note}**`, ''];
}
import { footer, type RunMeta, type ThreadReport } from './preflight.js';

const MAX_ON_CARD = 8;
/** More replies than this and the thread gets the short form plus the full report as a file. */
export const MAX_REPORT_REPLIES = 8;

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function counts(summary: Record<Severity, number>): string {
  return [
    `${severityEmoji.block} ${plural(summary.block, 'blocker', 'blockers')}`,
    `${severityEmoji.warn} ${plural(summary.warn, 'warning', 'warnings')}`,
    `${severityEmoji.info} ${plural(summary.info, 'note', 'notes')}`,
    `${severityEmoji.pass} ${summary.pass} passed`,
  ].join('   ');
}

export function reportCard(
  report: PreflightReport,
  ov: ClusterOverview,
  meta: RunMeta,
): ChatMessage {
  const headline =
    `:mag: *Pre-flight · ${escape(report.cluster)}* · ${escape(report.kubernetesVersion)} · ` +
    `${escape(report.platformName)} · mode ${escape(report.currentMode)} ` +
    `(${plural(ov.nodes.length, 'node', 'nodes')}, ${plural(ov.pools.length, 'pool', 'pools')})`;
  const note = coverageNote(report);
  const incomplete =
    (report.unprobed.length > 0
      ? `\n:warning: *Incomplete:* ${plural(report.unprobed.length, 'node', 'nodes')} could not be probed (${escape(
          report.unprobed
            .slice(0, 5)
            .map((u) => u.node)
            .join(', '),
        )}${report.unprobed.length > 5 ? ', …' : ''}): their host facts are unknown and block them.`
      : '') + (note === undefined ? '' : `\n:grey_question: ${escape(note)}`);
  const blocks: KnownBlock[] = [section(`${headline}\n${counts(report.summary)}${incomplete}`)];
  const worst = report.summary.block > 0 ? 'block' : report.summary.warn > 0 ? 'warn' : undefined;
  if (worst !== undefined) {
    const shown = report.findings.filter((f) => f.severity === worst);
    const lines = shown.slice(0, MAX_ON_CARD).map(findingOneLine);
    if (shown.length > MAX_ON_CARD)
      lines.push(`• and ${shown.length - MAX_ON_CARD} more in the thread`);
    blocks.push(section(`*${worst === 'block' ? 'Blockers' : 'Warnings'}*\n${lines.join('\n')}`));
  } else {
    blocks.push(section(':white_check_mark: No blockers and no warnings.'));
  }
  blocks.push(
    context('Full report ▸ in thread', footer(meta, [`took ${duration(ov.durationMs)}`])),
  );
  return {
    text:
      `Pre-flight ${report.cluster}: ${report.summary.block} blockers, ${report.summary.warn} warnings ` +
      `(${report.kubernetesVersion}, mode ${report.currentMode}, ${ov.nodes.length} nodes)`,
    blocks,
  };
}

interface Part {
  title: string;
  findings: Finding[];
}

/** Findings split into one part per pool that has any, then cluster-wide. */
function parts(report: PreflightReport): Part[] {
  const grouped = groupFindings(report);
  return [
    ...grouped.pools
      .filter((pool) => pool.findings.length > 0)
      .map((pool) => ({
        title: `*Pool ${escape(pool.name)}* · ${escape(report.cluster)} · ${plural(pool.nodes.length, 'node', 'nodes')}`,
        findings: pool.findings,
      })),
    ...(grouped.cluster.length > 0
      ? [{ title: `*Cluster-wide* · ${escape(report.cluster)}`, findings: grouped.cluster }]
      : []),
  ];
}

function passedLine(report: PreflightReport): string {
  const passed = groupFindings(report).passed.map((f) => f.check);
  return passed.length === 0
    ? ''
    : `${severityEmoji.pass} passed: ${passed.map(escape).join(', ')}`;
}

export function reportThread(report: PreflightReport, ov: ClusterOverview): ThreadReport {
  const fallback = `Pre-flight ${report.cluster}`;
  const full = parts(report).flatMap((part) =>
    packSections(
      part.title,
      part.findings.map(findingMrkdwn),
      `${fallback}: ${part.title.replace(/\*/g, '')}`,
    ),
  );
  const passed = passedLine(report);
  if (passed !== '') full.push({ text: `${fallback}: passed checks`, blocks: [section(passed)] });
  if (full.length <= MAX_REPORT_REPLIES) return { replies: full };

  // Too long for the thread: the one-line form of what needs action, then the file.
  const short = parts(report)
    .map((part) => ({
      ...part,
      findings: part.findings.filter((f) => f.severity === 'block' || f.severity === 'warn'),
    }))
    .filter((part) => part.findings.length > 0)
    .flatMap((part) =>
      packSections(part.title, [part.findings.map(findingOneLine).join('\n')], fallback),
    );
  const replies = short.slice(0, MAX_REPORT_REPLIES - 1);
  replies.push({
    text: `${fallback}: the full report is in the attached file`,
    blocks: [
      section(`The full report (${report.findings.length} findings) is in the attached file.`),
    ],
  });
  return {
    replies,
    file: {
      filename: `preflight-${report.cluster}.md`,
      title: `Pre-flight · ${report.cluster}`,
      content: reportMarkdown(report, ov),
    },
  };
}

export function reportMarkdown(report: PreflightReport, ov: ClusterOverview): string {
  const s = report.summary;
  const lines = [
    `# Pre-flight · ${report.cluster}`,
    '',
    `${report.kubernetesVersion} · ${report.platformName} · mode ${report.currentMode} · ` +
      `${ov.nodes.length} nodes in ${ov.pools.length} pools · generated ${report.generatedAt}`,
    '',
    `| ${severityWord.block} | ${severityWord.warn} | ${severityWord.info} | ${severityWord.pass} |`,
    '|---|---|---|---|',
    `| ${s.block} | ${s.warn} | ${s.info} | ${s.pass} |`,
    '',
    ...coverageNoteLines(report),
    ...(report.unprobed.length > 0
      ? [
          `**Incomplete:** ${report.unprobed.length} node(s) could not be probed; their host facts are unknown and block them:`,
          '',
          ...report.unprobed.map((u) => `- ${u.node}: ${u.reason}`),
          '',
        ]
      : []),
    '## Findings',
    '',
    ...report.findings.filter((f) => f.severity !== 'pass').map(findingMarkdown),
    '## Passed',
    '',
    ...report.findings.filter((f) => f.severity === 'pass').map((f) => `- ${f.check}: ${f.title}`),
    '',
    '## Nodes',
    '',
    '| node | pool | ready | kernel | kubelet | address |',
    '|---|---|---|---|---|---|',
    ...ov.nodes.map(
      (n) =>
        `| ${n.name} | ${n.pool} | ${n.ready ? 'yes' : 'no'} | ${n.kernel} | ${n.kubelet} | ${n.internalIP} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
