// The apiserver's field manager (managedfields/internal: fieldmanager.go and the managers it
// stacks: skip-non-applied, cap-managers, build-manager-info, managed-fields-updater, strip-meta,
// structured-merge), for Update operations (create, PUT, JSON/merge/strategic patch) and Apply.

import type { JsonObject, JsonValue, KubeObject } from '../apimachinery/types.js';
import { FieldSet } from './field-set.js';
import type { KindContext } from './kind-context.js';
import type { Managed } from './managed.js';
import { decodeManaged, emptyManaged, encodeManaged, isReset, managerId } from './managed.js';
import type { ManagedFields } from './updater.js';
import { updateOwnership } from './updater.js';

/** Fields no manager ever owns (stripmeta.go). */
const stripSet = FieldSet.of(
  ...[
    ['apiVersion'],
    ['kind'],
    ['metadata'],
    ...[
      'name',
      'namespace',
      'creationTimestamp',
      'selfLink',
      'uid',
      'clusterName',
      'generation',
      'managedFields',
      'resourceVersion',
    ].map((f) => ['metadata', f]),
  ].map((p) => p.map((field) => ({ field }))),
);

const maxUpdateManagers = 10;
const currentOperation = 'current-operation';

/** The object as the field manager compares it: without its managedFields. */
export function withoutManagedFields(obj: KubeObject | JsonObject): JsonObject {
  const o = obj as JsonObject;
  const meta = o['metadata'];
  if (!meta || typeof meta !== 'object' || Array.isArray(meta) || !('managedFields' in meta))
    return o;
  const { managedFields: _drop, ...rest } = meta;
  return { ...o, metadata: rest };
}

export function stripMeta(fields: ManagedFields, id: string): void {
  const vs = fields.get(id);
  if (!vs) return;
  const set = vs.set.difference(stripSet);
  if (set.empty()) fields.delete(id);
  else fields.set(id, { ...vs, set });
}

function decodeOrEmpty(entries: JsonValue | undefined): Managed {
  const d = decodeManaged(entries);
  return typeof d === 'string' ? emptyManaged() : d;
}

/** capManagersManager: past ten updaters, the oldest merge into `ancient-changes` per version. */
function capUpdateManagers(managed: Managed): void {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= maxUpdateManagers) return;
  const secs = (id: string): number => {
    const t = managed.times.get(id);
    return t === undefined ? 0 : Math.floor(Date.parse(t) / 1000);
  };
  updaters.sort((a, b) => secs(a) - secs(b) || (a < b ? -1 : a > b ? 1 : 0));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (const id of updaters) {
    if (length <= maxUpdateManagers) break;
    const vs = managed.fields.get(id);
    if (!vs) continue;
    const bucket = managerId({
      manager: 'ancient-changes',
      operation: 'Update',
      apiVersion: vs.apiVersion,
    });
    const first = firstByVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstByVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      const s = managed.fields.get(first);
      managed.fields.delete(first);
      if (s) managed.fields.set(bucket, s);
    }
    const into = managed.fields.get(bucket);
    managed.fields.set(bucket, { ...vs, set: vs.set.union(into?.set ?? new FieldSet()) });
    managed.fields.delete(id);
    length -= 1;
    const time = managed.times.get(id);
    if (time !== undefined) managed.times.set(bucket, time);
    else managed.times.delete(bucket);
  }
}

/** The Update stack below skip-non-applied: build the id, update, strip, stamp the time, cap. */
export function recordUpdate(
  ctx: KindContext,
  live: JsonObject,
  next: JsonObject,
  managed: Managed,
  manager: string,
  now: string,
): Managed {
  const id = managerId({
    manager: manager === '' ? 'unknown' : manager,
    operation: 'Update',
    apiVersion: ctx.apiVersion,
    ...(ctx.subresource ? { subresource: ctx.subresource } : {}),
  });
  const fields = updateOwnership(ctx, live, next, managed.fields, currentOperation);
  stripMeta(fields, currentOperation);
  const times = new Map(managed.times);
  const mine = fields.get(currentOperation);
  if (mine) {
    fields.delete(currentOperation);
    const previous = fields.get(id);
    // The previous set first: when the write added nothing new, it stays (and stays encoded).
    fields.set(id, { ...mine, set: previous ? previous.set.union(mine.set) : mine.set });
    times.set(id, now);
  }
  const out = { fields, times };
  capUpdateManagers(out);
  return out;
}

/**
 * FieldManager.UpdateNoErrors: the managedFields `next` carries once `manager` wrote it over
 * `live` (undefined on create). Managed fields the request sets are kept when valid (`[]` clears
 * them); a subresource write always starts from the live ones.
 */
export function updateManagedFields(
  ctx: KindContext,
  live: KubeObject | undefined,
  next: KubeObject,
  manager: string,
  now: string,
): JsonObject[] | undefined {
  const liveEntries = live?.metadata.managedFields;
  const given = next.metadata.managedFields;
  let managed: Managed;
  if (ctx.subresource !== undefined) managed = decodeOrEmpty(liveEntries);
  else if (isReset(given)) managed = emptyManaged();
  else {
    const d = decodeManaged(given);
    managed = typeof d === 'string' || d.fields.size === 0 ? decodeOrEmpty(liveEntries) : d;
  }
  // skipNonAppliedManager: an existing object nobody manages stays untracked until an apply.
  if (managed.fields.size === 0 && live !== undefined) return undefined;
  const base = live ? withoutManagedFields(live) : ctx.zero;
  return encodeManaged(recordUpdate(ctx, base, withoutManagedFields(next), managed, manager, now));
}

/** Sets `next.metadata.managedFields` for an Update by `manager` (the registry's write hook). */
export function trackUpdate(
  ctx: KindContext,
  live: KubeObject | undefined,
  next: KubeObject,
  manager: string,
  now: string,
): void {
  const entries = updateManagedFields(ctx, live, next, manager, now);
  if (entries) next.metadata.managedFields = entries;
  else delete next.metadata.managedFields;
}
