/**
 * The DaemonSet actions: the canary DaemonSet (ensure, delete) and the two changes to the
 * original (update strategy, required node affinity), each a JSON patch whose first operation
 * tests the resourceVersion it was computed from, so a DaemonSet rewritten in between (by
 * `kubeadm upgrade`, an add-on manager, a person) is never overwritten blindly.
 */
import type { V1DaemonSet } from '@kubernetes/client-node';
import type { ActionOf } from '../../../core/actions.js';
import type { KubeDaemonSet } from '../../../core/kube.js';
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
): Promise<KubeDaemonSet | undefined> {
  const ds = await readOrUndefined(ctx, `read DaemonSet ${namespace}/${name}`, () =>
    ctx.apps.readNamespacedDaemonSet({ namespace, name }, ctx.options()),
  );
  return ds === undefined ? undefined : plain<KubeDaemonSet>(ds);
}

export async function ensureDaemonSet(
  ctx: ApplyContext,
  action: ActionOf<'ensure-daemonset'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const current = await live(ctx, namespace, name);
  const body = {
    ...action.desired,
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
  } as unknown as V1DaemonSet;
  if (current === undefined) {
    const created = await call(ctx, `create DaemonSet ${namespace}/${name}`, () =>
      ctx.apps.createNamespacedDaemonSet({ namespace, body, ...dryRunParam(ctx) }, ctx.options()),
    );
    return kept(ctx, plain<KubeDaemonSet>(created), action);
  }
  const rv = current.metadata.resourceVersion ?? '';
  if (
    contains(current.spec, action.desired.spec) &&
    contains(current.metadata.labels ?? {}, action.desired.metadata.labels ?? {})
  ) {
    return { status: 'unchanged', resourceVersion: rv };
  }
  // A create that got 409 (AlreadyExists) finds a DaemonSet that is not the one it wrote: not ours.
  if (ctx.afterConflict === true && action.previous === null) {
    throw notAsPlanned(
      ctx,
      `DaemonSet ${namespace}/${name}`,
      'none',
      `one at resourceVersion ${rv}`,
    );
  }
  if (
    action.previous !== null &&
    action.previous.resourceVersion !== '' &&
    action.previous.resourceVersion !== rv
  ) {
    throw changedSince(ctx, `DaemonSet ${namespace}/${name}`, action.previous.resourceVersion, rv);
  }
  const replaced = await call(ctx, `update DaemonSet ${namespace}/${name}`, () =>
    ctx.apps.replaceNamespacedDaemonSet(
      {
        namespace,
        name,
        body: { ...body, metadata: { ...body.metadata, resourceVersion: rv } },
        ...dryRunParam(ctx),
      },
      ctx.options(),
    ),
  );
  return kept(ctx, plain<KubeDaemonSet>(replaced), action);
}

/** After the write: the answer holds the planned spec, or the write is not trusted. */
function kept(
  ctx: ApplyContext,
  written: KubeDaemonSet,
  action: ActionOf<'ensure-daemonset'>,
): ApplyResult {
  if (!contains(written.spec, action.desired.spec)) {
    throw notKept(
      ctx,
      `DaemonSet ${action.ref.namespace}/${action.ref.name} does not have the spec asked for`,
    );
  }
  return { status: 'applied', resourceVersion: written.metadata.resourceVersion ?? '' };
}

export async function deleteDaemonSet(
  ctx: ApplyContext,
  action: ActionOf<'delete-daemonset'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const current = await live(ctx, namespace, name);
  if (current === undefined) return { status: 'unchanged' };
  const rv = action.previous.resourceVersion;
  // Checked before the delete too: a DaemonSet changed since the plan is never deleted.
  const liveRv = current.metadata.resourceVersion ?? '';
  if (rv !== '' && rv !== liveRv)
    throw changedSince(ctx, `DaemonSet ${namespace}/${name}`, rv, liveRv);
  await call(ctx, `delete DaemonSet ${namespace}/${name}`, () =>
    ctx.apps.deleteNamespacedDaemonSet(
      {
        namespace,
        name,
        // Background: the garbage collector removes its pods, as `kubectl delete` does.
        body: deleteBody(ctx, {
          propagationPolicy: 'Background',
          ...(rv === '' ? {} : { preconditions: { resourceVersion: rv } }),
        }),
      },
      ctx.options(),
    ),
  );
  return { status: 'applied' };
}

type PatchOp = { op: 'test' | 'add' | 'replace' | 'remove'; path: string; value?: unknown };

async function patch(
  ctx: ApplyContext,
  namespace: string,
  name: string,
  what: string,
  ops: PatchOp[],
): Promise<KubeDaemonSet> {
  const patched = await call(ctx, `${what} on DaemonSet ${namespace}/${name}`, () =>
    ctx.apps.patchNamespacedDaemonSet(
      { namespace, name, body: ops, ...dryRunParam(ctx) },
      ctx.options(),
    ),
  );
  return plain<KubeDaemonSet>(patched);
}

/** The precondition: the DaemonSet is still the one the action was computed from. */
function basedOn(ctx: ApplyContext, current: KubeDaemonSet, rv: string, what: string): PatchOp[] {
  const live = current.metadata.resourceVersion ?? '';
  if (rv === '') return [];
  if (rv !== live) throw changedSince(ctx, what, rv, live);
  return [{ op: 'test', path: '/metadata/resourceVersion', value: rv }];
}

function missing(ctx: ApplyContext, namespace: string, name: string): Error {
  return notKept(ctx, `DaemonSet ${namespace}/${name} is gone`);
}

export async function setUpdateStrategy(
  ctx: ApplyContext,
  action: ActionOf<'set-update-strategy'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const current = await live(ctx, namespace, name);
  if (current === undefined) throw missing(ctx, namespace, name);
  const have = current.spec?.updateStrategy ?? {};
  if (
    have.type === action.strategy.type &&
    contains(have.rollingUpdate, action.strategy.rollingUpdate)
  ) {
    return { status: 'unchanged', resourceVersion: current.metadata.resourceVersion ?? '' };
  }
  const value =
    action.strategy.type === 'OnDelete'
      ? { type: 'OnDelete' }
      : {
          type: 'RollingUpdate',
          ...(action.strategy.rollingUpdate === undefined
            ? {}
            : { rollingUpdate: action.strategy.rollingUpdate }),
        };
  const result = await patch(ctx, namespace, name, 'set the update strategy', [
    ...basedOn(ctx, current, action.basedOn, `DaemonSet ${namespace}/${name}`),
    {
      op: current.spec?.updateStrategy === undefined ? 'add' : 'replace',
      path: '/spec/updateStrategy',
      value,
    },
  ]);
  if (result.spec?.updateStrategy?.type !== action.strategy.type) {
    throw notKept(
      ctx,
      `DaemonSet ${namespace}/${name} has updateStrategy ${result.spec?.updateStrategy?.type ?? 'none'}`,
    );
  }
  return { status: 'applied', resourceVersion: result.metadata.resourceVersion ?? '' };
}

const REQUIRED = 'requiredDuringSchedulingIgnoredDuringExecution';

export async function setNodeAffinity(
  ctx: ApplyContext,
  action: ActionOf<'set-node-affinity'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const current = await live(ctx, namespace, name);
  if (current === undefined) throw missing(ctx, namespace, name);
  const affinity = current.spec?.template?.spec?.affinity;
  const have = affinity?.nodeAffinity?.[REQUIRED] ?? null;
  if (JSON.stringify(have) === JSON.stringify(action.required)) {
    return { status: 'unchanged', resourceVersion: current.metadata.resourceVersion ?? '' };
  }
  const base = '/spec/template/spec/affinity';
  const ops: PatchOp[] = basedOn(ctx, current, action.basedOn, `DaemonSet ${namespace}/${name}`);
  if (action.required === null) {
    ops.push({ op: 'remove', path: `${base}/nodeAffinity/${REQUIRED}` });
  } else if (affinity === undefined) {
    ops.push({ op: 'add', path: base, value: { nodeAffinity: { [REQUIRED]: action.required } } });
  } else if (affinity.nodeAffinity === undefined) {
    ops.push({ op: 'add', path: `${base}/nodeAffinity`, value: { [REQUIRED]: action.required } });
  } else {
    ops.push({ op: 'add', path: `${base}/nodeAffinity/${REQUIRED}`, value: action.required });
  }
  const result = await patch(ctx, namespace, name, 'set the node affinity', ops);
  const kept = result.spec?.template?.spec?.affinity?.nodeAffinity?.[REQUIRED] ?? null;
  if (!contains(kept, action.required)) {
    throw notKept(
      ctx,
      `DaemonSet ${namespace}/${name} does not have the required node affinity asked for`,
    );
  }
  return { status: 'applied', resourceVersion: result.metadata.resourceVersion ?? '' };
}
