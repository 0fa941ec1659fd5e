/**
 * What a rollback run will do, for the confirmation: the inverse of the node's last cutover's
 * label changes (or of its live label), and that the canary objects stay for the other nodes.
 */
import { describe } from '../../core/action-describe.js';
import { KUBE_SYSTEM } from '../../core/cluster-overview.js';
import { findKubeProxyDaemonSet } from '../../core/kube-proxy-config.js';
import { forwardFromLabel, undoable, undoSteps } from '../../core/node-journal.js';
import { createHash } from 'node:crypto';
import { refusal, type StepExecutor } from '../step-context.js';
import { nodeTarget } from './node-target.js';

export const planRollback: StepExecutor = async (ctx) => {
  const { node, label } = nodeTarget(ctx);
  const live = await ctx.cluster.getNode(node);
  if (live === undefined)
    return refusal(`node ${node} does not exist in cluster ${ctx.state().cluster}`);
  const value = live.metadata.labels?.[label];
  const cutover = (await ctx.previousRuns()).find(
    (r) => r.kind === 'cutover' && undoable(r.journal, node, label).length > 0,
  );
  const entries =
    cutover === undefined
      ? forwardFromLabel(node, label, value)
          .reverse()
          .map((action) => ({ action }))
      : undoable(cutover.journal, node, label).map((e) => ({ action: e.action }));
  const steps = undoSteps(entries);
  const actions = steps.map((s) => describe(s.action));
  actions.push(`wait for the original kube-proxy on ${node} to be Ready, then verify IPVS`);
  // The hash covers what the rollback starts from: the node's label and the journal it undoes.
  const hash = createHash('sha256')
    .update(JSON.stringify({ node, value: value ?? null, from: cutover?.id ?? null, actions }))
    .digest('hex')
    .slice(0, 7);
  return {
    ok: true,
    note:
      cutover === undefined
        ? `from the node's label (${value ?? 'none'})`
        : `undoes run ${cutover.id}`,
    plan: { hash, actions },
    facts: {
      originalDaemonSet:
        findKubeProxyDaemonSet(await ctx.cluster.listDaemonSets(KUBE_SYSTEM))?.metadata.name ??
        'kube-proxy',
    },
  };
};
