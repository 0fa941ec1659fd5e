/**
 * Node labels (the migration label, which moves a node between the DaemonSets) and the node's
 * run annotations (kured style: whoever looks at the node with kubectl sees the run and step).
 * JSON patches on single keys, so nothing else on the Node is touched.
 */
import type { ActionOf } from '../../../core/actions.js';
import type { KubeNode } from '../../../core/kube.js';
import type { ApplyResult } from '../../../ports/cluster.js';
import {
  call,
  dryRunParam,
  notAsPlanned,
  notKept,
  plain,
  pointer,
  readOrUndefined,
  type ApplyContext,
} from './context.js';

type PatchOp = { op: 'add' | 'remove'; path: string; value?: unknown };

async function live(ctx: ApplyContext, node: string): Promise<KubeNode> {
  const found = await readOrUndefined(ctx, `read node ${node}`, () =>
    ctx.core.readNode({ name: node }, ctx.options()),
  );
  if (found === undefined) throw notKept(ctx, `node ${node} does not exist`);
  return plain<KubeNode>(found);
}

async function patch(
  ctx: ApplyContext,
  node: string,
  what: string,
  ops: PatchOp[],
): Promise<KubeNode> {
  const patched = await call(ctx, `${what} on node ${node}`, () =>
    ctx.core.patchNode({ name: node, body: ops, ...dryRunParam(ctx) }, ctx.options()),
  );
  return plain<KubeNode>(patched);
}

/** JSON patch operations setting (or, for null, removing) keys of a string map. */
function mapOps(
  field: 'labels' | 'annotations',
  have: Record<string, string> | undefined,
  want: Record<string, string | null>,
): PatchOp[] {
  const ops: PatchOp[] = [];
  if (have === undefined) {
    const value = Object.fromEntries(
      Object.entries(want).filter((e): e is [string, string] => e[1] !== null),
    );
    return Object.keys(value).length === 0
      ? []
      : [{ op: 'add', path: `/metadata/${field}`, value }];
  }
  for (const [key, value] of Object.entries(want)) {
    const path = `/metadata/${field}/${pointer(key)}`;
    if (value === null) {
      if (key in have) ops.push({ op: 'remove', path });
    } else if (have[key] !== value) {
      ops.push({ op: 'add', path, value });
    }
  }
  return ops;
}

async function setMap(
  ctx: ApplyContext,
  node: string,
  field: 'labels' | 'annotations',
  want: Record<string, string | null>,
  previous: Record<string, string | null>,
): Promise<ApplyResult> {
  const current = await live(ctx, node);
  if (ctx.afterConflict === true) {
    // The write lost a race: retry only if each key is still as planned, or already as wanted.
    const have = current.metadata[field] ?? {};
    for (const [key, value] of Object.entries(want)) {
      const now = have[key] ?? null;
      const planned = previous[key] ?? null;
      if (now !== value && now !== planned) {
        throw notAsPlanned(
          ctx,
          `${field.slice(0, -1)} ${key} of node ${node}`,
          planned ?? '(none)',
          now ?? '(none)',
        );
      }
    }
  }
  const ops = mapOps(field, current.metadata[field], want);
  if (ops.length === 0)
    return { status: 'unchanged', resourceVersion: current.metadata.resourceVersion ?? '' };
  const result = await patch(ctx, node, `set ${field}`, ops);
  const kept = result.metadata[field] ?? {};
  for (const [key, value] of Object.entries(want)) {
    if ((kept[key] ?? null) !== value) {
      throw notKept(
        ctx,
        `node ${node} has ${field.slice(0, -1)} ${key}=${kept[key] ?? '(none)'}, not ${value ?? '(none)'}`,
      );
    }
  }
  return { status: 'applied', resourceVersion: result.metadata.resourceVersion ?? '' };
}

export function labelNode(ctx: ApplyContext, action: ActionOf<'label-node'>): Promise<ApplyResult> {
  return setMap(
    ctx,
    action.node,
    'labels',
    { [action.key]: action.value },
    { [action.key]: action.previous },
  );
}

export function unlabelNode(
  ctx: ApplyContext,
  action: ActionOf<'unlabel-node'>,
): Promise<ApplyResult> {
  return setMap(
    ctx,
    action.node,
    'labels',
    { [action.key]: null },
    { [action.key]: action.previous },
  );
}

export function annotateNode(
  ctx: ApplyContext,
  action: ActionOf<'annotate-node'>,
): Promise<ApplyResult> {
  return setMap(ctx, action.node, 'annotations', action.annotations, action.previous);
}
