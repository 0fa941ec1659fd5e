// TypedValue.Merge with the keep-right-hand-side rule (typed/merge.go), the merge an apply makes
// of the live object and the configuration, and RemoveItems (typed/remove.go), which prunes the
// fields an applier gave up.

import type { JsonObject, JsonValue } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';
import type { FieldDef, ListNode, MapNode, SchemaNode } from '../schema/types.js';
import type { FieldSet } from './field-set.js';
import type { PathElement } from './path-element.js';
import { elementId, elementString } from './path-element.js';
import { fieldType, itemElement, resolve } from './typed.js';

type Side = JsonValue | undefined;

export class MergeError extends Error {}

function isEmpty(v: Side): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}

/** Merges `rhs` (the configuration) over `lhs` (the live value); undefined means no output. */
export function merge(node: SchemaNode, lhs: Side, rhs: Side, path = ''): JsonValue | undefined {
  const n = resolve(node, rhs ?? lhs);
  const keepRhs = (): JsonValue | undefined => (rhs !== undefined ? rhs : lhs);
  if (n.kind === 'scalar' || n.kind === 'deduced') return keepRhs();
  if (n.kind === 'list') {
    if (n.listType === 'atomic' || (isEmpty(lhs) && isEmpty(rhs))) return keepRhs();
    return mergeList(n, Array.isArray(lhs) ? lhs : [], Array.isArray(rhs) ? rhs : [], path);
  }
  if (n.atomic || (isEmpty(lhs) && isEmpty(rhs))) return keepRhs();
  const l = isJsonObject(lhs) ? lhs : {};
  const r = isJsonObject(rhs) ? rhs : {};
  const out: JsonObject = {};
  for (const key of new Set([...Object.keys(l), ...Object.keys(r)])) {
    const t = fieldType(n, key) ?? { kind: 'deduced' };
    const v = merge(t, l[key], r[key], `${path}.${key}`);
    if (v !== undefined) out[key] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

interface Indexed {
  pes: PathElement[];
  byId: Map<string, JsonValue>;
}

function index(n: ListNode, list: JsonValue[], allowDuplicates: boolean, path: string): Indexed {
  const pes: PathElement[] = [];
  const byId = new Map<string, JsonValue>();
  for (const [i, item] of list.entries()) {
    const pe = itemElement(n, item);
    if (typeof pe === 'string') throw new MergeError(`${path}: element ${i}: ${pe}`);
    const id = elementId(pe);
    if (byId.has(id)) {
      if (!allowDuplicates)
        throw new MergeError(`${path}: duplicate entries for key ${elementString(pe)}`);
      byId.set(id, null);
    } else byId.set(id, item);
    pes.push(pe);
  }
  return { pes, byId };
}

/** Keeps the live order, placing the configuration's items where its own order puts them. */
function mergeList(
  n: ListNode,
  lhs: JsonValue[],
  rhs: JsonValue[],
  path: string,
): JsonValue[] | undefined {
  const r = index(n, rhs, false, path);
  const l = index(n, lhs, true, path);
  const shared = r.pes.filter((pe) => l.byId.has(elementId(pe)));
  let next = shared.shift();
  const merged = new Set<string>();
  const out: JsonValue[] = [];
  const push = (pe: PathElement, lv: Side, rv: Side): void => {
    const v = merge(n.items, lv, rv, path + elementString(pe));
    if (v !== undefined) out.push(v);
  };
  let li = 0;
  let ri = 0;
  while (li < l.pes.length || ri < r.pes.length) {
    const lpe = l.pes[li];
    const rpe = r.pes[ri];
    if (lpe && rpe) {
      const lid = elementId(lpe);
      if (lid === elementId(rpe)) {
        merged.add(lid);
        push(lpe, l.byId.get(lid), r.byId.get(lid));
        li += 1;
        ri += 1;
        next = shared.shift();
        continue;
      }
      if (r.byId.has(lid) && next !== undefined && elementId(next) !== lid) {
        li += 1;
        continue;
      }
    }
    if (lpe) {
      const lid = elementId(lpe);
      if (!r.byId.has(lid)) {
        push(lpe, lhs[li], undefined);
        li += 1;
        continue;
      } else if (merged.has(lid)) li += 1;
    }
    if (rpe) {
      const rid = elementId(rpe);
      merged.add(rid);
      push(rpe, l.byId.get(rid), r.byId.get(rid));
      ri += 1;
      if (next !== undefined && elementId(next) === rid) next = shared.shift();
    }
  }
  return out.length > 0 ? out : undefined;
}

/** What Go leaves of a container that lost every entry: null if always encoded, else nothing. */
function emptied(def: FieldDef | undefined, node: SchemaNode): JsonValue | undefined {
  if (!def?.zero) return undefined;
  return node.kind === 'list' ? null : {};
}

/** RemoveItems: drops the listed fields and list items; descends only where something goes. */
export function removeItems(node: SchemaNode, value: JsonValue, toRemove: FieldSet): JsonValue {
  const n = resolve(node, value);
  if (n.kind === 'list' && Array.isArray(value) && n.listType !== 'atomic') {
    const items: JsonValue[] = [];
    for (const item of value) {
      const pe = itemElement(n, item);
      if (typeof pe === 'string') {
        items.push(item);
        continue;
      }
      if (toRemove.has([pe])) continue;
      const sub = toRemove.withPrefix(pe);
      items.push(sub.empty() ? item : removeItems(n.items, item, sub));
    }
    return items;
  }
  if (n.kind === 'map' && isJsonObject(value) && !n.atomic)
    return removeFromMap(n, value, toRemove);
  return value;
}

function removeFromMap(n: MapNode, value: JsonObject, toRemove: FieldSet): JsonObject {
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const pe = { field: key };
    if (toRemove.has([pe])) continue;
    const sub = toRemove.withPrefix(pe);
    if (sub.empty()) {
      out[key] = child;
      continue;
    }
    const t = fieldType(n, key) ?? { kind: 'deduced' };
    const pruned = removeItems(t, child, sub);
    if (isEmpty(pruned) && !isEmpty(child)) {
      const left = emptied(n.fields?.[key], t);
      if (left !== undefined) out[key] = left;
    } else out[key] = pruned;
  }
  return out;
}
