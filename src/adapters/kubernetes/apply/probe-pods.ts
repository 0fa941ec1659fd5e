/**
 * Probe pods: created under a name fixed by the run and the node, so a run resumed in another
 * process finds (and reuses) its own pod instead of starting a second one.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ActionOf } from '../../../core/actions.js';
import type { ApplyResult } from '../../../ports/cluster.js';
import { kubeError } from '../errors.js';
import { probePodManifest } from '../probe-pod.js';
import { dryRunParam, type ApplyContext } from './context.js';
import { withRetry } from '../retry.js';

export async function createProbePod(
  ctx: ApplyContext,
  action: ActionOf<'create-probe-pod'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const body: V1Pod = probePodManifest({
    name,
    node: action.node,
    namespace,
    image: action.image,
    runId: action.runId,
  });
  try {
    // Idempotent (a pod that exists answers 409, unchanged), so every transient failure retries.
    const created = await withRetry(
      () => ctx.core.createNamespacedPod({ namespace, body, ...dryRunParam(ctx) }, ctx.options()),
      { write: false, gate: ctx.gate },
    );
    return { status: 'applied', resourceVersion: created.metadata?.resourceVersion ?? '' };
  } catch (error) {
    if ((error as { code?: number }).code === 409) return { status: 'unchanged' };
    throw kubeError(error, ctx.cluster, `create probe pod ${namespace}/${name} on ${action.node}`);
  }
}

export async function deleteProbePod(
  ctx: ApplyContext,
  action: ActionOf<'delete-probe-pod'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  try {
    await withRetry(
      () =>
        ctx.core.deleteNamespacedPod(
          { namespace, name, gracePeriodSeconds: 0, ...dryRunParam(ctx) },
          ctx.options(),
        ),
      { write: false, gate: ctx.gate },
    );
    return { status: 'applied' };
  } catch (error) {
    if ((error as { code?: number }).code === 404) return { status: 'unchanged' };
    throw kubeError(error, ctx.cluster, `delete probe pod ${namespace}/${name}`);
  }
}
