/**
 * Moves a node back: the inverse of the node's label changes, newest first, each followed by
 * the wait its result calls for (switching → old pod gone; no label → the original Ready).
 * In a cutover's automatic rollback the journal is the run's own; a rollback run takes the
 * node's last cutover's, or rebuilds it from the live label when there is none.
 */
import { labelAfter, settleFor } from '../../core/node-migration.js';
import { forwardFromLabel, undoable, undoSteps } from '../../core/node-journal.js';
import type { StepContext, StepExecutor } from '../step-context.js';
import { nodeTarget } from './node-target.js';
import { setNodeLabel } from './node-labels.js';
import { waitForNode } from './waits.js';

async function toUndo(
  ctx: StepContext,
): Promise<{ steps: ReturnType<typeof undoSteps>; from: string }> {
  const state = ctx.state();
  const { node, label } = nodeTarget(ctx);
  if (state.kind === 'cutover') {
    return { steps: undoSteps(undoable(state.journal, node, label)), from: 'this run' };
  }
  const cutover = (await ctx.previousRuns()).find(
    (r) => r.kind === 'cutover' && undoable(r.journal, node, label).length > 0,
  );
  if (cutover !== undefined) {
    // Undo entries of another run are not this run's seqs: recorded without `undoes`.
    const steps = undoSteps(
      undoable(cutover.journal, node, label).map((e) => ({ action: e.action })),
    );
    return { steps, from: `run ${cutover.id}` };
  }
  const live = (await ctx.cluster.getNode(node))?.metadata.labels?.[label];
  const forward = forwardFromLabel(node, label, live).reverse();
  return {
    steps: undoSteps(forward.map((action) => ({ action }))),
    from: `the node's label (${live ?? 'none'})`,
  };
}

export const revertNode: StepExecutor = async (ctx) => {
  const { label } = nodeTarget(ctx);
  const { steps, from } = await toUndo(ctx);
  for (const step of steps) {
    const value = labelAfter(step.action, label);
    if (value === undefined) continue;
    await setNodeLabel(ctx, value, step.undoes === undefined ? {} : { undoes: step.undoes });
    const waited = await waitForNode(ctx, settleFor(value));
    if (!waited.ok) return waited;
  }
  // Nothing to undo still ends with the original kube-proxy Ready, or it is not a rollback.
  if (steps.length === 0) {
    const waited = await waitForNode(ctx, 'original-ready');
    if (!waited.ok) return waited;
  }
  return {
    ok: true,
    note: `${steps.length} label change${steps.length === 1 ? '' : 's'} undone (from ${from})`,
  };
};
