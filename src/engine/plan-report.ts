/**
 * The plan people review before a cutover, whoever asks (the terminal's `plan`, the Slack
 * `plan` verb): the canary objects and the original's changes computed from the live objects,
 * every write sent as a server-side dry run (dryRun=All: the API server validates it and
 * persists nothing), unified diffs, the short hash people approve, a suggested node order from
 * an API-only pre-flight (no probe pods), and the canary verdict the node pre-flight applies.
 * One implementation, so the terminal and Slack can never show two different plans.
 */
import { describe } from '../core/action-describe.js';
import type { ClusterAction } from '../core/actions.js';
import { canaryAllowed } from '../core/canary-allowed.js';
import { suggestOrder } from '../core/node-order.js';
import { planDiffs } from '../core/plan-diff.js';
import { DRY_RUN_ACCEPTED, type PlanReport } from '../core/plan-result.js';
import { isUnchanged } from '../core/plan-unchanged.js';
import { groupByPool } from '../core/pools.js';
import type { ClusterConfig } from '../config.js';
import { asAppError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterPort } from '../ports/cluster.js';
import { preflightRun } from './preflight-run.js';
import { computePlan } from './steps/canary-plan.js';

export interface PlanSources {
  cluster: ClusterPort;
  config: Pick<ClusterConfig, 'name' | 'migrationLabel' | 'poolLabel' | 'selfManagedKubeProxy'>;
  /** Plan this node's cutover too (its label steps); absent: the shared objects only. */
  node?: string;
  clock: Clock;
}

/** A cluster that cannot be planned (no kube-proxy DaemonSet, an unknown node, …). */
export interface PlanProblem {
  problem: string;
}

export async function planReport(src: PlanSources): Promise<PlanReport | PlanProblem> {
  const { cluster, config } = src;
  const computed = await computePlan({
    cluster,
    migrationLabel: config.migrationLabel,
    ...(src.node === undefined ? {} : { node: src.node }),
  });
  if ('problem' in computed) return { problem: computed.problem };
  const actions: ClusterAction[] = src.node === undefined ? computed.plan.shared : computed.actions;
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
    clock: src.clock,
    ...(config.poolLabel === undefined ? {} : { poolLabel: config.poolLabel }),
  });
  const blocked = new Map<string, string[]>();
  for (const f of report.findings.filter((f) => f.severity === 'block')) {
    for (const node of f.subjects)
      blocked.set(node, [...(blocked.get(node) ?? []), `${f.check}: ${f.title}`]);
  }
  const order = suggestOrder(
    snapshot.nodes,
    groupByPool(snapshot.nodes, config.poolLabel),
    blocked,
  );
  // The same verdict the node pre-flight applies before any write: a plan for a platform that
  // owns kube-proxy is shown (people plan before they ask) but says it will be refused.
  const canary = canaryAllowed(platform, report.findings, {
    eksSelfManagedKubeProxy: config.selfManagedKubeProxy,
  });
  return {
    cluster: config.name,
    ...(src.node === undefined ? {} : { node: src.node }),
    hash: computed.hash,
    platform: platform.name,
    canary,
    actions: actions.map((a) => `${describe(a)}${isUnchanged(a) ? ' (already so)' : ''}`),
    dryRun: refusals.length === 0 ? DRY_RUN_ACCEPTED : refusals,
    changes: computed.plan.changes,
    dropped: computed.plan.dropped,
    diffs: planDiffs(computed.plan),
    order,
  };
}
