/** The crash suite's figures, each beside its goal, as plain text. */
import type { SuiteReport } from './run-suite.js';

function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const seconds = (ms: number | undefined) =>
  ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`;

export function formatReport(report: SuiteReport): string {
  const outcomes = Object.entries(report.outcomes)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const rows: [string, string, string][] = [
    ['cases (cutover + rollback)', String(report.cases), ''],
    ['runs', String(report.runs), ''],
    [
      'kills (kill -9)',
      String(report.kills),
      report.missedKills > 0 ? `${report.missedKills} kill points not reached` : '',
    ],
    ['outcomes', outcomes || '-', 'verified, rolled-back or needs-attention'],
    ['invariant violations', String(report.violations.length), 'goal 0'],
    ['duplicate Slack posts', String(report.duplicatePosts.length), 'goal 0'],
    ['runs ended without a result posted', String(report.unannounced.length), 'goal 0'],
    ['probe pods or locks left after runs', String(report.leftovers.length), 'goal 0'],
    [
      'restarted bot ready → run moving again',
      `p50 ${seconds(percentile(report.resumeMs, 50))}, max ${seconds(percentile(report.resumeMs, 100))}`,
      'goal: under 2 s; BullMQ stall detection alone takes ~60 s',
    ],
    [
      'kill -9 → restarted bot ready',
      `p50 ${seconds(percentile(report.restartMs, 50))}, max ${seconds(percentile(report.restartMs, 100))}`,
      'process start under tsx, not the product',
    ],
    [
      'longest spell without a Ready kube-proxy',
      seconds(report.longestGapMs),
      `deadline ${seconds(report.swapDeadlineMs)}`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v, goal]) =>
    `${k.padEnd(width)}  ${v}${goal === '' ? '' : `   (${goal})`}`.trimEnd(),
  );
  for (const [title, list] of [
    ['violations', report.violations],
    ['duplicate posts', report.duplicatePosts],
    ['unannounced', report.unannounced],
    ['left over', report.leftovers],
  ] as const) {
    if (list.length > 0) lines.push(`${title}:`, ...list.map((l) => `  - ${l}`));
  }
  return `${lines.join('\n')}\n`;
}

/** Whether the suite met its guarantees (what the exit code says). */
export function passed(report: SuiteReport): boolean {
  return (
    report.violations.length === 0 &&
    report.duplicatePosts.length === 0 &&
    report.unannounced.length === 0 &&
    report.leftovers.length === 0
  );
}
