/**
 * The pre-flight report for a terminal: findings grouped by pool, then cluster-wide, worst first,
 * each with its remedy and commands; ANSI colour only when asked (a TTY), so logs stay clean.
 */
import type { ClusterOverview } from '../core/cluster-overview.js';
import type { Finding, Severity } from '../core/findings.js';
import { groupFindings, type PreflightReport } from '../core/report.js';
import { severityWord } from './finding-text.js';
import { paint as paintText, type Style } from './paint.js';
import { coverageNote } from './probe-coverage.js';

const colours = {
  block: 'red',
  warn: 'yellow',
  info: 'cyan',
  pass: 'green',
} as const satisfies Record<Severity, Style>;

export interface TextOptions {
  colour: boolean;
}

export function reportText(
  report: PreflightReport,
  ov: ClusterOverview,
  options: TextOptions,
): string {
  const paint = (style: Style, text: string): string => paintText(options.colour, style, text);
  const bold = (text: string): string => paint('bold', text);
  const tag = (s: Severity): string => paint(colours[s], severityWord[s].padEnd(5));
  const width = Math.max(12, ...report.findings.map((f) => f.check.length));
  const render = (f: Finding): string[] => {
    const lines = [`  ${tag(f.severity)}  ${f.check.padEnd(width)}  ${f.title}`];
    const indent = ' '.repeat(11 + width);
    if (f.detail !== '') lines.push(...f.detail.split('\n').map((l) => `${indent}${l}`));
    if (f.remedy !== undefined) lines.push(`${indent}→ ${f.remedy}`);
    for (const command of f.commands)
      lines.push(...command.split('\n').map((l) => `${indent}  ${paint('dim', l)}`));
    return lines;
  };

  const s = report.summary;
  const out = [
    bold(
      `Pre-flight · ${report.cluster} · ${report.kubernetesVersion} · ${report.platformName} · mode ${report.currentMode} · ` +
        `${ov.nodes.length} nodes, ${ov.pools.length} pools`,
    ),
    `${tag('block')} ${s.block}   ${tag('warn')} ${s.warn}   ${tag('info')} ${s.info}   ${tag('pass')} ${s.pass}`,
    ...((note) => (note === undefined ? [] : [paint(colours.warn, note)]))(coverageNote(report)),
    ...(report.unprobed.length > 0
      ? [
          paint(
            colours.warn,
            `INCOMPLETE: ${report.unprobed.length} node${report.unprobed.length === 1 ? '' : 's'} could not be probed (${report.unprobed.map((u) => u.node).join(', ')}): their host facts are unknown and block them`,
          ),
        ]
      : []),
    '',
  ];
  const grouped = groupFindings(report);
  for (const pool of grouped.pools) {
    out.push(
      bold(`Pool ${pool.name} (${pool.nodes.length} node${pool.nodes.length === 1 ? '' : 's'})`),
    );
    out.push(
      ...(pool.findings.length === 0
        ? [`  ${tag('pass')}  nothing found`]
        : pool.findings.flatMap(render)),
      '',
    );
  }
  if (grouped.cluster.length > 0)
    out.push(bold('Cluster-wide'), ...grouped.cluster.flatMap(render), '');
  if (grouped.passed.length > 0)
    out.push(`${tag('pass')} ${grouped.passed.map((f) => f.check).join(', ')}`);
  return `${out.join('\n')}\n`;
}
