/**
 * The node's two label steps: `switching` (the old kube-proxy goes, nothing new comes) and then
 * `nftables` (the canary's comes). Each reads the node's current label first, so the action
 * carries what it replaces and re-running the step writes nothing; the node's run annotations
 * say which run is on it and where.
 */
import type { ClusterAction } from '../../core/actions.js';
import {
  ANNOTATION_RUN,
  ANNOTATION_STEP,
  LABEL_NFTABLES,
  LABEL_SWITCHING,
} from '../../core/node-migration.js';
import type { StepContext, StepExecutor } from '../step-context.js';
import { nodeTarget } from './node-target.js';

/** Sets the migration label to `value` and notes the run and step on the node. */
export async function setNodeLabel(
  ctx: StepContext,
  value: string | null,
  options: { undoes?: number } = {},
): Promise<string> {
  const { node, label } = nodeTarget(ctx);
  const current = await ctx.cluster.getNode(node);
  if (current === undefined) throw new Error(`node ${node} does not exist`);
  const annotations = current.metadata.annotations ?? {};
  await ctx.apply({
    kind: 'annotate-node',
    node,
    annotations: { [ANNOTATION_RUN]: ctx.state().id, [ANNOTATION_STEP]: ctx.step.id },
    previous: {
      [ANNOTATION_RUN]: annotations[ANNOTATION_RUN] ?? null,
      [ANNOTATION_STEP]: annotations[ANNOTATION_STEP] ?? null,
    },
  });
  const previous = current.metadata.labels?.[label] ?? null;
  const action: ClusterAction =
    value === null
      ? { kind: 'unlabel-node', node, key: label, previous: previous ?? '' }
      : { kind: 'label-node', node, key: label, value, previous };
  if (value === null && previous === null) return `${label} already absent`;
  const result = await ctx.apply(action, options);
  return result.status === 'unchanged'
    ? `${label}=${value ?? '(none)'} already`
    : `${label}=${value ?? '(none)'}`;
}

export const labelSwitching: StepExecutor = async (ctx) => ({
  ok: true,
  note: await setNodeLabel(ctx, LABEL_SWITCHING),
});

export const labelNftables: StepExecutor = async (ctx) => ({
  ok: true,
  note: await setNodeLabel(ctx, LABEL_NFTABLES),
});
