/**
 * Probe pods: created under a name fixed by the run and the node, so a run resumed in another
 * process finds (and reuses) its own pod instead of starting a second one.
 */
import { ApiException, type V1Pod } from '@kubernetes/client-node';
import { AppError } from '../../../errors.js';
import type { ActionOf } from '../../../core/actions.js';
import type { ApplyResult } from '../../../ports/cluster.js';
import { kubeError } from '../errors.js';
import { probePodManifest } from '../probe-pod.js';
import { dryRunParam, type ApplyContext } from './context.js';
import { withRetry } from '../retry.js';

/**
 * A create in a namespace that does not exist answers 404 with the namespace as the missing
 * object (`namespaces "x" not found`, details.kind `namespaces`): the pod itself can never be
 * missing on create.
 */
function namespaceMissing(error: unknown): boolean {
  if (!(error instanceof ApiException) || error.code !== 404) return false;
  let body: unknown = error.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      return false;
    }
  }
  return (body as { details?: { kind?: string } } | null)?.details?.kind === 'namespaces';
}

export function probeNamespaceMissing(
  cluster: string,
  namespace: string,
  cause?: unknown,
): AppError {
  return new AppError(
    'PROBE_NAMESPACE_MISSING',
    `Cluster ${cluster}: the probe namespace ${namespace} does not exist, so no node can be probed.`,
    {
      remedy: `Create it with the deploy base (\`kubectl apply -f deploy/install.yaml\`) or \`proxy-migrate connect ${cluster}\`, or point probe.namespace in the clusters file at a namespace labelled pod-security.kubernetes.io/enforce=privileged where the bot may create pods.`,
      cause,
      details: { cluster, namespace },
    },
  );
}

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
    if (namespaceMissing(error)) throw probeNamespaceMissing(ctx.cluster, namespace, error);
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
