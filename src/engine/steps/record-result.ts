/**
 * The last write of a node run: the node's annotations say how the run ended (kured style, for
 * whoever looks with kubectl), and the step annotation goes, since nothing is in progress.
 */
import { ANNOTATION_RESULT, ANNOTATION_RUN, ANNOTATION_STEP } from '../../core/node-migration.js';
import type { StepExecutor } from '../step-context.js';
import { nodeTarget } from './node-target.js';

export const recordResult: StepExecutor = async (ctx) => {
  const state = ctx.state();
  const { node } = nodeTarget(ctx);
  const current = await ctx.cluster.getNode(node);
  const annotations = current?.metadata.annotations ?? {};
  const result =
    state.track === 'rollback'
      ? 'rolled back to the original kube-proxy, verified'
      : state.kind === 'rollback'
        ? 'back on the original kube-proxy, verified'
        : 'nftables, verified';
  const value = `${result} by ${state.id} at ${ctx.clock.now().toISOString()}`;
  await ctx.apply({
    kind: 'annotate-node',
    node,
    annotations: {
      [ANNOTATION_RUN]: state.id,
      [ANNOTATION_STEP]: null,
      [ANNOTATION_RESULT]: value,
    },
    previous: {
      [ANNOTATION_RUN]: annotations[ANNOTATION_RUN] ?? null,
      [ANNOTATION_STEP]: annotations[ANNOTATION_STEP] ?? null,
      [ANNOTATION_RESULT]: annotations[ANNOTATION_RESULT] ?? null,
    },
  });
  return { ok: true, note: result };
};
