/** ensure-configmap and delete-configmap: the canary's KubeProxyConfiguration. */
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { ActionOf } from '../../../core/actions.js';
import type { ApplyResult } from '../../../ports/cluster.js';
import {
  call,
  changedSince,
  contains,
  deleteBody,
  dryRunParam,
  notAsPlanned,
  notKept,
  plain,
  readOrUndefined,
  type ApplyContext,
} from './context.js';

async function live(
  ctx: ApplyContext,
  namespace: string,
  name: string,
): Promise<V1ConfigMap | undefined> {
  return readOrUndefined(ctx, `read ConfigMap ${namespace}/${name}`, () =>
    ctx.core.readNamespacedConfigMap({ namespace, name }, ctx.options()),
  );
}

export async function ensureConfigMap(
  ctx: ApplyContext,
  action: ActionOf<'ensure-configmap'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const current = await live(ctx, namespace, name);
  const body: V1ConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace,
      labels: action.desired.labels,
      annotations: action.desired.annotations,
    },
    data: action.desired.data,
  };
  if (current === undefined) {
    const created = await call(ctx, `create ConfigMap ${namespace}/${name}`, () =>
      ctx.core.createNamespacedConfigMap({ namespace, body, ...dryRunParam(ctx) }, ctx.options()),
    );
    return kept(ctx, created, action);
  }
  const rv = current.metadata?.resourceVersion ?? '';
  const same =
    JSON.stringify(current.data ?? {}) === JSON.stringify(action.desired.data) &&
    contains(plain(current.metadata?.labels ?? {}), action.desired.labels);
  if (same) return { status: 'unchanged', resourceVersion: rv };
  // A create that got 409 (AlreadyExists) finds a ConfigMap that is not the one it wrote: not ours.
  if (ctx.afterConflict === true && action.previous === null) {
    throw notAsPlanned(
      ctx,
      `ConfigMap ${namespace}/${name}`,
      'none',
      `one at resourceVersion ${rv}`,
    );
  }
  if (
    action.previous !== null &&
    action.previous.resourceVersion !== '' &&
    action.previous.resourceVersion !== rv
  ) {
    throw changedSince(ctx, `ConfigMap ${namespace}/${name}`, action.previous.resourceVersion, rv);
  }
  const replaced = await call(ctx, `update ConfigMap ${namespace}/${name}`, () =>
    ctx.core.replaceNamespacedConfigMap(
      {
        namespace,
        name,
        body: {
          ...body,
          metadata: {
            ...body.metadata,
            labels: { ...current.metadata?.labels, ...action.desired.labels },
            annotations: { ...current.metadata?.annotations, ...action.desired.annotations },
            resourceVersion: rv,
          },
        },
        ...dryRunParam(ctx),
      },
      ctx.options(),
    ),
  );
  return kept(ctx, replaced, action);
}

/** After the write: the answer holds the planned data, or the write is not trusted. */
function kept(
  ctx: ApplyContext,
  written: V1ConfigMap,
  action: ActionOf<'ensure-configmap'>,
): ApplyResult {
  if (JSON.stringify(written.data ?? {}) !== JSON.stringify(action.desired.data)) {
    throw notKept(
      ctx,
      `ConfigMap ${action.ref.namespace}/${action.ref.name} does not hold the data asked for`,
    );
  }
  return { status: 'applied', resourceVersion: written.metadata?.resourceVersion ?? '' };
}

export async function deleteConfigMap(
  ctx: ApplyContext,
  action: ActionOf<'delete-configmap'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const current = await live(ctx, namespace, name);
  if (current === undefined) return { status: 'unchanged' };
  const rv = action.previous.resourceVersion;
  // Checked before the delete too: a ConfigMap changed since the plan is never deleted.
  const liveRv = current.metadata?.resourceVersion ?? '';
  if (rv !== '' && rv !== liveRv)
    throw changedSince(ctx, `ConfigMap ${namespace}/${name}`, rv, liveRv);
  await call(ctx, `delete ConfigMap ${namespace}/${name}`, () =>
    ctx.core.deleteNamespacedConfigMap(
      {
        namespace,
        name,
        body: deleteBody(ctx, rv === '' ? {} : { preconditions: { resourceVersion: rv } }),
      },
      ctx.options(),
    ),
  );
  return { status: 'applied' };
}
