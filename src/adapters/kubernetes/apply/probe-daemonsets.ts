/**
 * The fleet probe's DaemonSet: created under one of a few fixed names (so RBAC can pin them),
 * deleted with its pods (background propagation, as `kubectl delete` does). A create that finds
 * the name taken answers K8S_CONFLICT: the shell then tries the next name or probes pod by pod.
 */
import type { ActionOf } from '../../../core/actions.js';
import { AppError } from '../../../errors.js';
import type { ApplyResult } from '../../../ports/cluster.js';
import { kubeError } from '../errors.js';
import { probeDaemonSetManifest, PROBE_RUN_ANNOTATION } from '../probe-daemonset.js';
import { withRetry } from '../retry.js';
import { deleteBody, dryRunParam, readOrUndefined, type ApplyContext } from './context.js';

export async function createProbeDaemonSet(
  ctx: ApplyContext,
  action: ActionOf<'create-probe-daemonset'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const body = probeDaemonSetManifest({ ...action.ref, ...action });
  try {
    // Idempotent by name and run: a 409 on our own DaemonSet is unchanged, so every retry is safe.
    const created = await withRetry(
      () =>
        ctx.apps.createNamespacedDaemonSet({ namespace, body, ...dryRunParam(ctx) }, ctx.options()),
      { write: false },
    );
    return { status: 'applied', resourceVersion: created.metadata?.resourceVersion ?? '' };
  } catch (error) {
    if ((error as { code?: number }).code !== 409) {
      throw kubeError(error, ctx.cluster, `create probe DaemonSet ${namespace}/${name}`);
    }
    const live = await readOrUndefined(ctx, `read probe DaemonSet ${namespace}/${name}`, () =>
      ctx.apps.readNamespacedDaemonSet({ namespace, name }, ctx.options()),
    );
    if (live?.metadata?.annotations?.[PROBE_RUN_ANNOTATION] === action.runId) {
      return { status: 'unchanged', resourceVersion: live.metadata.resourceVersion ?? '' };
    }
    throw new AppError(
      'K8S_CONFLICT',
      `Cluster ${ctx.cluster}: probe DaemonSet ${namespace}/${name} belongs to run ${live?.metadata?.annotations?.[PROBE_RUN_ANNOTATION] ?? 'unknown'}.`,
      {
        remedy: 'Another pre-flight is probing this cluster; the run uses another name.',
        retryable: true,
        details: { cluster: ctx.cluster, name },
      },
    );
  }
}

export async function deleteProbeDaemonSet(
  ctx: ApplyContext,
  action: ActionOf<'delete-probe-daemonset'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  try {
    await withRetry(
      () =>
        ctx.apps.deleteNamespacedDaemonSet(
          {
            namespace,
            name,
            body: deleteBody(ctx, { propagationPolicy: 'Background', gracePeriodSeconds: 0 }),
          },
          ctx.options(),
        ),
      { write: false },
    );
    return { status: 'applied' };
  } catch (error) {
    if ((error as { code?: number }).code === 404) return { status: 'unchanged' };
    throw kubeError(error, ctx.cluster, `delete probe DaemonSet ${namespace}/${name}`);
  }
}
