/**
 * The plan of a cutover: the canary objects, the original's changes and the node's label
 * changes, computed from the live objects, confirmed by sending every write as a server-side
 * dry run (dryRun=All: the API server validates and persists nothing), and hashed. People
 * approve the hash; the plan-unchanged gate refuses the run if the cluster moved on since.
 */
import { describe } from '../../core/action-describe.js';
import type { ClusterAction } from '../../core/actions.js';
import { planCanary, type CanaryPlan } from '../../core/canary-plan.js';
import { planDiffs } from '../../core/plan-diff.js';
import { planBasis, planHash } from '../../core/plan-hash.js';
import { isUnchanged } from '../../core/plan-unchanged.js';
import { asAppError } from '../../errors.js';
import { refusal, type StepContext, type StepExecutor } from '../step-context.js';
import { readCanaryInput, type PlanScope } from './canary-input.js';

export interface ComputedPlan {
  plan: CanaryPlan;
  hash: string;
  /** Shared actions first, then the node's label changes. */
  actions: ClusterAction[];
}

/** The plan's scope for a run: its cluster, label, node and the node's measured kernel. */
function scopeOf(ctx: StepContext): PlanScope {
  const state = ctx.state();
  const kernel = state.facts['nodeKernel'];
  return {
    cluster: ctx.cluster,
    migrationLabel: ctx.clusterConfig.migrationLabel,
    ...(state.node === undefined ? {} : { node: state.node }),
    ...(typeof kernel === 'string' ? { nodeKernel: kernel } : {}),
  };
}

export async function computePlan(scope: PlanScope): Promise<ComputedPlan | { problem: string }> {
  const read = await readCanaryInput(scope);
  if (!read.ok) return { problem: read.problem };
  const result = planCanary(read.input);
  if (!result.ok) return { problem: result.problem };
  const node = result.plan.nodes[0];
  const actions = [...result.plan.shared, ...(node?.cutover ?? [])];
  return { plan: result.plan, hash: planHash(result.plan, planBasis(read.input)), actions };
}

export const planCutover: StepExecutor = async (ctx) => {
  const computed = await computePlan(scopeOf(ctx));
  if ('problem' in computed) return refusal(computed.problem);
  const { plan, hash, actions } = computed;
  const node = plan.nodes[0];
  if (node?.mode === 'nftables') return refusal(`${node.node} already runs the canary (nftables)`);
  // Every write the run will make, sent as a dry run: a 422 here is a plan the API server
  // would refuse in the middle of the cutover.
  for (const action of actions) {
    if (isUnchanged(action)) continue;
    try {
      await ctx.apply(action, { dryRun: true });
    } catch (error) {
      const e = asAppError(error);
      if (e.retryable) throw error;
      return refusal(
        `the API server refused the planned write "${describe(action)}" in a dry run: ${e.message}`,
      );
    }
  }
  const original = plan.shared.find((a) => a.kind === 'set-update-strategy');
  return {
    ok: true,
    note: `plan ${hash}: ${actions.filter((a) => !isUnchanged(a)).length} writes, confirmed by a server-side dry run`,
    plan: {
      hash,
      actions: actions.map((a) => `${describe(a)}${isUnchanged(a) ? ' (already so)' : ''}`),
    },
    facts: {
      ...(original === undefined || original.kind !== 'set-update-strategy'
        ? {}
        : { originalDaemonSet: original.ref.name }),
      planDiffs: planDiffs(plan),
      planChanges: plan.changes,
      planDropped: plan.dropped,
    },
  };
};

/** Under the lock, before the first write: the plan computed again must hash as approved. */
export const planUnchanged: StepExecutor = async (ctx) => {
  const approved = ctx.state().planHash;
  const computed = await computePlan(scopeOf(ctx));
  if ('problem' in computed) return refusal(computed.problem);
  if (approved !== undefined && computed.hash !== approved) {
    return refusal(
      `the cluster changed since the plan was approved (plan ${approved} is now ${computed.hash}); nothing was written: plan and request again`,
    );
  }
  return { ok: true, note: `plan ${computed.hash}` };
};

/**
 * The shared canary objects and the original's changes, in the plan's order, one write at a
 * time: the plan is computed again after each write, so every action carries the state it
 * really replaces (the original's resourceVersion moves with the first patch) and a plan that
 * does not converge is caught instead of looping.
 */
export const ensureCanaryObjects: StepExecutor = async (ctx) => {
  let written = 0;
  for (let index = 0; ; index += 1) {
    const computed = await computePlan(scopeOf(ctx));
    if ('problem' in computed) return refusal(computed.problem);
    const action = computed.plan.shared[index];
    if (action === undefined) break;
    if (isUnchanged(action)) continue;
    const result = await ctx.apply(action);
    if (result.status === 'applied') written += 1;
  }
  // Converged: planned again, nothing is left to write.
  const after = await computePlan(scopeOf(ctx));
  if ('problem' in after) return refusal(after.problem);
  const left = after.plan.shared.filter((a) => !isUnchanged(a));
  if (left.length > 0) {
    return {
      ok: false,
      failure: {
        kind: 'error',
        message: `the canary objects do not hold what was written (${left.map((a) => describe(a)).join('; ')}): something rewrites them (an add-on manager, a controller, a webhook)`,
        retryable: true,
      },
    };
  }
  return { ok: true, note: written === 0 ? 'already in place' : `${written} written` };
};
