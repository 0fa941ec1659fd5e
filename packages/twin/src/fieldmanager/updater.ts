// merge.Updater of structured-merge-diff (merge/update.go): ownership after an update (the writer
// takes every field it changed, others lose them), and apply (merge the configuration, own exactly
// its fields, prune what this applier alone gave up, conflict on fields others own). One version
// per kind is served, so managers recorded at another apiVersion are obsolete and dropped.

import type { JsonObject, JsonValue } from '../apimachinery/types.js';
import { deepEqual } from '../apimachinery/types.js';
import type { MapNode } from '../schema/types.js';
import type { Comparison } from './compare.js';
import { compare } from './compare.js';
import { FieldSet } from './field-set.js';
import { merge, removeItems } from './merge.js';
import type { Path } from './path-element.js';
import { toFieldSet } from './typed.js';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Manager identifier (the JSON upstream builds) to what it owns. */
export type ManagedFields = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: Path;
}

export class ConflictsError extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super('conflicts');
  }
}

export interface UpdaterOptions {
  root: MapNode;
  apiVersion: string;
  /** Fields no manager may own here (the strategy's reset fields). */
  ignore: FieldSet;
}

function filtered(c: Comparison, ignore: FieldSet): Comparison {
  return {
    added: c.added.recursiveDifference(ignore),
    modified: c.modified.recursiveDifference(ignore),
    removed: c.removed.recursiveDifference(ignore),
  };
}

function step(
  o: UpdaterOptions,
  oldObject: JsonValue,
  newObject: JsonValue,
  managers: ManagedFields,
  workflow: string,
  force: boolean,
): Comparison {
  const c = filtered(compare(o.root, oldObject, newObject, o.ignore), o.ignore);
  const changed = c.modified.union(c.added);
  const conflicts = new Map<string, FieldSet>();
  const removed = new Set<string>();
  for (const [manager, vs] of managers) {
    if (manager === workflow) continue;
    if (vs.apiVersion !== o.apiVersion) {
      managers.delete(manager);
      continue;
    }
    const clash = vs.set.intersection(changed);
    if (!clash.empty()) conflicts.set(manager, clash);
    if (!c.removed.empty()) removed.add(manager);
  }
  if (!force && conflicts.size > 0) {
    const list: Conflict[] = [];
    for (const manager of [...conflicts.keys()].sort())
      conflicts.get(manager)?.iterate((path) => list.push({ manager, path }));
    throw new ConflictsError(list);
  }
  for (const [manager, clash] of conflicts) {
    const vs = managers.get(manager);
    if (vs) managers.set(manager, { ...vs, set: vs.set.difference(clash) });
  }
  for (const manager of removed) {
    const vs = managers.get(manager);
    if (vs) managers.set(manager, { ...vs, set: vs.set.difference(c.removed) });
  }
  for (const [manager, vs] of managers) if (vs.set.empty()) managers.delete(manager);
  return c;
}

/** Updater.Update: after a create, PUT or non-apply patch by `manager`. */
export function updateOwnership(
  o: UpdaterOptions,
  live: JsonValue,
  next: JsonValue,
  managers: ManagedFields,
  manager: string,
): ManagedFields {
  const out: ManagedFields = new Map(managers);
  const c = step(o, live, next, out, manager, true);
  const mine = out.get(manager)?.set ?? new FieldSet();
  const set = mine
    .difference(c.removed)
    .union(c.modified)
    .union(c.added)
    .recursiveDifference(o.ignore);
  if (set.empty()) out.delete(manager);
  else out.set(manager, { set, apiVersion: o.apiVersion, applied: false });
  return out;
}

export interface ApplyResult {
  /** The merged object, or undefined when the apply changes nothing. */
  object: JsonObject | undefined;
  managers: ManagedFields;
}

/** Updater.Apply; throws ConflictsError unless `force`. */
export function applyConfig(
  o: UpdaterOptions,
  live: JsonObject,
  config: JsonObject,
  managers: ManagedFields,
  manager: string,
  force: boolean,
): ApplyResult {
  const out: ManagedFields = new Map(managers);
  const merged = (merge(o.root, live, config) ?? {}) as JsonObject;
  const last = out.get(manager);
  const set = toFieldSet(o.root, config).recursiveDifference(o.ignore);
  out.set(manager, { set, apiVersion: o.apiVersion, applied: true });
  const result = last && !last.set.empty() ? prune(o, merged, out, last.set) : merged;
  step(o, live, result, out, manager, force);
  return { object: deepEqual(live, result) ? undefined : result, managers: out };
}

/** Removes what `manager` applied last time and no longer applies, unless another owns it. */
function prune(
  o: UpdaterOptions,
  merged: JsonObject,
  managers: ManagedFields,
  last: FieldSet,
): JsonObject {
  const named = (s: FieldSet): FieldSet => s.ensureNamedFieldsAreMembers(o.root);
  let pruned = removeItems(o.root, merged, named(last)) as JsonObject;
  let owned = new FieldSet();
  for (const vs of managers.values()) owned = owned.union(vs.set);
  const mergedSet = named(toFieldSet(o.root, merged));
  const keep = named(toFieldSet(o.root, pruned)).union(named(owned));
  pruned = removeItems(o.root, merged, mergedSet.difference(keep)) as JsonObject;
  const gone = mergedSet.difference(named(toFieldSet(o.root, pruned))).intersection(named(last));
  return removeItems(o.root, merged, gone) as JsonObject;
}
