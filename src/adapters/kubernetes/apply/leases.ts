/**
 * The cluster lock's Lease. Times go out as MicroTime strings with six fractional digits: the
 * SDK's Date fields would serialise with three, which API servers reject (client-node #828), and
 * the serializer passes strings through unchanged.
 */
import type { V1Lease } from '@kubernetes/client-node';
import type { ActionOf } from '../../../core/actions.js';
import { microTime } from '../../../core/micro-time.js';
import type { ApplyResult } from '../../../ports/cluster.js';
import {
  call,
  changedSince,
  deleteBody,
  dryRunParam,
  readOrUndefined,
  type ApplyContext,
} from './context.js';

/** A MicroTime string where the SDK's type says Date. */
function wireTime(date: Date): Date {
  return microTime(date) as unknown as Date;
}

function leaseBody(
  namespace: string,
  name: string,
  spec: NonNullable<V1Lease['spec']>,
  resourceVersion?: string,
): V1Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace,
      labels: { 'app.kubernetes.io/managed-by': 'proxy-migrate' },
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
    },
    spec,
  };
}

export async function acquireLease(
  ctx: ApplyContext,
  action: ActionOf<'acquire-lease'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const now = new Date();
  const spec = {
    holderIdentity: action.holder,
    leaseDurationSeconds: action.durationSeconds,
    acquireTime: wireTime(now),
    renewTime: wireTime(now),
    leaseTransitions: action.previous === null ? 0 : action.previous.transitions + 1,
  };
  const written =
    action.previous === null
      ? await call(ctx, `create Lease ${namespace}/${name}`, () =>
          ctx.coordination.createNamespacedLease(
            { namespace, body: leaseBody(namespace, name, spec), ...dryRunParam(ctx) },
            ctx.options(),
          ),
        )
      : await call(ctx, `take over Lease ${namespace}/${name}`, () =>
          ctx.coordination.replaceNamespacedLease(
            {
              namespace,
              name,
              body: leaseBody(namespace, name, spec, action.previous?.resourceVersion ?? ''),
              ...dryRunParam(ctx),
            },
            ctx.options(),
          ),
        );
  return { status: 'applied', resourceVersion: written.metadata?.resourceVersion ?? '' };
}

async function liveLease(
  ctx: ApplyContext,
  namespace: string,
  name: string,
): Promise<V1Lease | undefined> {
  return readOrUndefined(ctx, `read Lease ${namespace}/${name}`, () =>
    ctx.coordination.readNamespacedLease({ namespace, name }, ctx.options()),
  );
}

export async function renewLease(
  ctx: ApplyContext,
  action: ActionOf<'renew-lease'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const lease = await liveLease(ctx, namespace, name);
  const rv = lease?.metadata?.resourceVersion ?? '';
  if (lease?.spec?.holderIdentity !== action.holder) {
    throw changedSince(ctx, `Lease ${namespace}/${name}`, action.resourceVersion, rv);
  }
  const spec = lease.spec;
  const renewed = await call(ctx, `renew Lease ${namespace}/${name}`, () =>
    ctx.coordination.replaceNamespacedLease(
      {
        namespace,
        name,
        body: leaseBody(
          namespace,
          name,
          {
            holderIdentity: action.holder,
            leaseDurationSeconds: spec.leaseDurationSeconds ?? 30,
            ...(spec.acquireTime === undefined
              ? {}
              : { acquireTime: wireTime(new Date(spec.acquireTime)) }),
            renewTime: wireTime(new Date()),
            leaseTransitions: spec.leaseTransitions ?? 0,
          },
          rv,
        ),
        ...dryRunParam(ctx),
      },
      ctx.options(),
    ),
  );
  return { status: 'applied', resourceVersion: renewed.metadata?.resourceVersion ?? '' };
}

export async function releaseLease(
  ctx: ApplyContext,
  action: ActionOf<'release-lease'>,
): Promise<ApplyResult> {
  const { namespace, name } = action.ref;
  const lease = await liveLease(ctx, namespace, name);
  if (lease === undefined || lease.spec?.holderIdentity !== action.holder)
    return { status: 'unchanged' };
  const rv = lease.metadata?.resourceVersion ?? '';
  await call(ctx, `release Lease ${namespace}/${name}`, () =>
    ctx.coordination.deleteNamespacedLease(
      { namespace, name, body: deleteBody(ctx, { preconditions: { resourceVersion: rv } }) },
      ctx.options(),
    ),
  );
  return { status: 'applied' };
}
