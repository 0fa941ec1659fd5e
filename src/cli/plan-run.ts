/**
 * The terminal `plan`: what proxy-migrate would create or change, computed from the live
 * objects, every write sent as a server-side dry run (nothing is persisted), unified diffs, the
 * short hash people approve, and a suggested node order from an API-only pre-flight (one canary
 * per pool first, blocked nodes last and marked). Nothing is written.
 */
import { KubeClusterDirectory } from '../adapters/kubernetes/directory.js';
import { describe } from '../core/action-describe.js';
import { canaryAllowed } from '../core/canary-allowed.js';
import type { ClusterAction } from '../core/actions.js';
import { suggestOrder } from '../core/node-order.js';
import { isUnchanged } from '../core/plan-unchanged.js';
import { groupByPool } from '../core/pools.js';
import { computePlan } from '../engine/steps/canary-plan.js';
import { preflightRun } from '../engine/preflight-run.js';
import { asAppError, toUserMessage } from '../errors.js';
import { systemClock } from '../ports/clock.js';
import { planDiffs } from '../core/plan-diff.js';
import { resolveTerminalCluster, terminalLogger } from './terminal-cluster.js';
import { EXIT, type CliIo } from './types.js';

export interface PlanArgs {
  cluster: string;
  node?: string;
  format: 'text' | 'json';
  kubeconfig?: string;
  context?: string;
  usage: string;
}

export async function runPlan(io: CliIo, args: PlanArgs): Promise<number> {
  const resolved = resolveTerminalCluster(io, args);
  if (!resolved.ok) return resolved.code;
  const logger = terminalLogger(io);
  const directory = new KubeClusterDirectory(
    { clusters: [resolved.cluster], defaultKubeconfigs: resolved.kubeconfigs },
    logger,
  );
  const cluster = directory.get(resolved.cluster.name);
  try {
    const computed = await computePlan({
      cluster,
      migrationLabel: resolved.cluster.migrationLabel,
      ...(args.node === undefined ? {} : { node: args.node }),
    });
    if ('problem' in computed) {
      io.stderr.write(`Cannot plan ${resolved.cluster.name}: ${computed.problem}\n`);
      return EXIT.refused;
    }
    const actions: ClusterAction[] =
      args.node === undefined ? computed.plan.shared : computed.actions;
    const refusals: string[] = [];
    for (const action of actions) {
      if (isUnchanged(action)) continue;
      try {
        await cluster.apply(action, { dryRun: true });
      } catch (error) {
        refusals.push(`${describe(action)}: ${asAppError(error).message}`);
      }
    }
    const { snapshot, report, platform } = await preflightRun({
      cluster,
      clock: systemClock,
      ...(resolved.cluster.poolLabel === undefined
        ? {}
        : { poolLabel: resolved.cluster.poolLabel }),
    });
    const blocked = new Map<string, string[]>();
    for (const f of report.findings.filter((f) => f.severity === 'block')) {
      for (const node of f.subjects)
        blocked.set(node, [...(blocked.get(node) ?? []), `${f.check}: ${f.title}`]);
    }
    const order = suggestOrder(
      snapshot.nodes,
      groupByPool(snapshot.nodes, resolved.cluster.poolLabel),
      blocked,
    );
    // The same verdict the node pre-flight applies before any write: a plan for a platform that
    // owns kube-proxy is shown (people plan before they ask) but says it will be refused.
    const canary = canaryAllowed(platform, report.findings, {
      eksSelfManagedKubeProxy: resolved.cluster.selfManagedKubeProxy,
    });
    const result = {
      cluster: resolved.cluster.name,
      ...(args.node === undefined ? {} : { node: args.node }),
      hash: computed.hash,
      platform: platform.name,
      canary,
      actions: actions.map((a) => `${describe(a)}${isUnchanged(a) ? ' (already so)' : ''}`),
      dryRun:
        refusals.length === 0 ? 'every write accepted by the API server (dryRun=All)' : refusals,
      changes: computed.plan.changes,
      dropped: computed.plan.dropped,
      diffs: planDiffs(computed.plan),
      order,
    };
    if (args.format === 'json') {
      io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const lines = [
        `plan ${result.hash} for ${result.cluster}${args.node === undefined ? '' : `, node ${args.node}`}:`,
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
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    return refusals.length === 0 && canary.allowed ? EXIT.ok : EXIT.refused;
  } catch (error) {
    io.stderr.write(`${toUserMessage(error)}\n`);
    return EXIT.failure;
  }
}
