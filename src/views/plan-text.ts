/** `proxy-migrate plan` for a terminal: verdict, numbered actions, dry run, config, diffs, order. */
import { dryRunRefusals, type PlanReport } from '../core/plan-result.js';

export function planText(result: PlanReport): string {
  const { canary, order } = result;
  const refusals = dryRunRefusals(result);
  const lines = [
    `plan ${result.hash} for ${result.cluster}${result.node === undefined ? '' : `, node ${result.node}`}:`,
    canary.allowed
      ? `canary: allowed. ${canary.reason}`
      : `canary: REFUSED. ${canary.reason}${canary.remedy === undefined ? '' : `\n  ${canary.remedy}`}`,
    ...canary.commands.map((c) => `    $ ${c.replaceAll('\n', '\n      ')}`),
    ...canary.warnings.map((w) => `  ! ${w}`),
    ...result.actions.map((a, i) => `  ${i + 1}. ${a}`),
    refusals.length === 0
      ? `dry run: ${String(result.dryRun)}`
      : `dry run REFUSED:\n${refusals.map((r) => `  ✗ ${r}`).join('\n')}`,
    ...(result.changes.length === 0
      ? []
      : ['configuration carried into nftables:', ...result.changes.map((c) => `  • ${c}`)]),
    ...(result.dropped.length === 0
      ? []
      : ['not carried (no nftables equivalent):', ...result.dropped.map((c) => `  • ${c}`)]),
    '',
    ...result.diffs.flatMap((d) => [`--- ${d.title}`, d.diff === '' ? '(no change)' : d.diff]),
    'suggested order:',
    ...order.map(
      (o, i) =>
        `  ${String(i + 1).padStart(3)}. ${o.node} (${o.pool}) ${o.step}${o.blockedBy.length === 0 ? '' : `: blocked by ${o.blockedBy.join('; ')}`}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
