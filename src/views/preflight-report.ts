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
import { context, duration, escape, packSections, paginate, section } from './blocks.js';
import {
  checkDetailsMarkdown,
  checkDetailsMrkdwn,
  findingOneLine,
  findingShortLine,
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
    context(
      meta.reportWhere ?? 'Full report ▸ in thread',
      footer(meta, [`took ${duration(ov.durationMs)}`]),
    ),
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
  /** Where, in plain words, for notification text: `pool legacy`, `cluster-wide`. */
  label: string;
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
        label: `pool ${pool.name}`,
        findings: pool.findings,
      })),
    ...(grouped.cluster.length > 0
      ? [
          {
            title: `*Cluster-wide* · ${escape(report.cluster)}`,
            label: 'cluster-wide',
            findings: grouped.cluster,
          },
        ]
      : []),
  ];
}

function passedLine(report: PreflightReport): string {
  const passed = groupFindings(report).passed.map((f) => f.check);
  return passed.length === 0
    ? ''
    : `${severityEmoji.pass} passed: ${passed.map(escape).join(', ')}`;
}

function tally(findings: readonly Finding[]): string {
  const count = (s: Severity): number => findings.filter((f) => f.severity === s).length;
  const said = [
    count('block') > 0 ? plural(count('block'), 'blocker', 'blockers') : '',
    count('warn') > 0 ? plural(count('warn'), 'warning', 'warnings') : '',
    count('info') > 0 ? plural(count('info'), 'note', 'notes') : '',
  ].filter((t) => t !== '');
  return said.length === 0 ? 'nothing to act on' : said.join(', ');
}

/** Non-pass findings by check id, in report order: one details entry per check. */
function byCheck(report: PreflightReport): Finding[][] {
  const checks = new Map<string, Finding[]>();
  for (const f of report.findings) {
    if (f.severity === 'pass') continue;
    const list = checks.get(f.check) ?? [];
    list.push(f);
    checks.set(f.check, list);
  }
  return [...checks.values()];
}

/**
 * The thread: one short line per finding (a reply per pool, then cluster-wide), then each check's
 * explanation and commands once however many pools it was found in, then the passed checks. Each
 * reply's notification text says what it holds, since that is what phones and screen readers show.
 */
export function reportThread(report: PreflightReport, ov: ClusterOverview): ThreadReport {
  const name = `Pre-flight ${report.cluster}`;
  const summaries = parts(report).flatMap((part) =>
    paginate(
      part.title,
      part.findings.map(findingShortLine),
      `${name} · ${part.label}: ${tally(part.findings)}`,
    ),
  );
  const checks = byCheck(report);
  const details =
    checks.length === 0
      ? []
      : packSections(
          `*Details* · ${escape(report.cluster)}: why each finding matters and what to run`,
          checks.map(checkDetailsMrkdwn),
          (first, end) =>
            `${name}: details for ${checks
              .slice(first, end)
              .map((c) => c[0]?.check ?? '')
              .join(', ')}`,
        );
  const passed = passedLine(report);
  const passedReply: ChatMessage[] =
    passed === ''
      ? []
      : [
          {
            text: `${name}: ${plural(groupFindings(report).passed.length, 'check', 'checks')} passed`,
            blocks: [section(passed)],
          },
        ];
  const full = [...summaries, ...details, ...passedReply];
  if (full.length <= MAX_REPORT_REPLIES) return { replies: full };

  // Too long for the thread: the short lines of what needs action, then the file.
  const short = parts(report)
    .map((part) => ({
      ...part,
      findings: part.findings.filter((f) => f.severity === 'block' || f.severity === 'warn'),
    }))
    .filter((part) => part.findings.length > 0)
    .flatMap((part) =>
      paginate(
        part.title,
        part.findings.map(findingShortLine),
        `${name} · ${part.label}: ${tally(part.findings)}`,
      ),
    );
  const replies = short.slice(0, MAX_REPORT_REPLIES - 1);
  replies.push({
    text: `${name}: the full report is in the attached file`,
    blocks: [
      section(
        `The full report (${plural(report.findings.length, 'finding', 'findings')}, with each check's explanation and commands) is in the attached file.`,
      ),
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
    ...byCheck(report).map(checkDetailsMarkdown),
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
