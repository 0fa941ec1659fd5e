// TypedValue.Compare (typed/compare.go): the fields an update added, modified and removed. Leaves
// (scalars, atomic maps and lists, empty ones) compare by value; granular maps and list items by
// key, and a node that appears or disappears counts itself as added or removed.

import type { JsonValue } from '../apimachinery/types.js';
import { deepEqual, isJsonObject } from '../apimachinery/types.js';
import type { ListNode, MapNode, SchemaNode } from '../schema/types.js';
import { FieldSet } from './field-set.js';
import type { Path, PathElement } from './path-element.js';
import { elementId } from './path-element.js';
import { fieldType, itemElement, resolve } from './typed.js';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** `undefined` is an absent side; `null` is a present JSON null. */
type Side = JsonValue | undefined;

/** `skip`: fields not to look at (the reset fields a caller filters out anyway). */
export function compare(node: SchemaNode, lhs: Side, rhs: Side, skip?: FieldSet): Comparison {
  const c: Comparison = {
    added: new FieldSet(),
    modified: new FieldSet(),
    removed: new FieldSet(),
  };
  walk(node, lhs, rhs, [], c, skip);
  return c;
}

function leaf(path: Path, lhs: Side, rhs: Side, c: Comparison): void {
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
  else if (!deepEqual(lhs, rhs)) c.modified.insert(path);
}

function isEmpty(v: Side, list: boolean): boolean {
  if (v === undefined || v === null) return true;
  if (list) return Array.isArray(v) && v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}

function walk(
  node: SchemaNode,
  lhs: Side,
  rhs: Side,
  path: Path,
  c: Comparison,
  skip?: FieldSet,
): void {
  const n = resolve(node, rhs ?? lhs);
  let isLeaf: boolean;
  if (n.kind === 'list') isLeaf = compareList(n, lhs, rhs, path, c);
  else if (n.kind === 'map') isLeaf = compareMap(n, lhs, rhs, path, c, skip);
  else {
    leaf(path, lhs, rhs, c);
    isLeaf = true;
  }
  if (isLeaf) return;
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
}

/** True when the list was compared as a leaf. */
function compareList(n: ListNode, lhs: Side, rhs: Side, path: Path, c: Comparison): boolean {
  const l = Array.isArray(lhs) ? lhs : undefined;
  const r = Array.isArray(rhs) ? rhs : undefined;
  if (n.listType === 'atomic' || (isEmpty(l, true) && isEmpty(r, true))) {
    leaf(path, lhs, rhs, c);
    return true;
  }
  const order: PathElement[] = [];
  const ordered = new Set<string>();
  const index = (list: JsonValue[] | undefined): Map<string, JsonValue[]> => {
    const byId = new Map<string, JsonValue[]>();
    for (const item of list ?? []) {
      const pe = itemElement(n, item);
      if (typeof pe === 'string') continue;
      const id = elementId(pe);
      const seen = byId.get(id);
      if (seen) seen.push(item);
      else {
        byId.set(id, [item]);
        if (!ordered.has(id)) order.push(pe);
        ordered.add(id);
      }
    }
    return byId;
  };
  const left = index(l);
  const right = index(r);
  for (const pe of order) {
    const id = elementId(pe);
    const ls = left.get(id) ?? [];
    const rs = right.get(id) ?? [];
    const itemPath = [...path, pe];
    if (ls.length <= 1 && rs.length <= 1) walk(n.items, ls[0], rs[0], itemPath, c);
    else if (ls.length >= 2 && rs.length >= 2) {
      if (!deepEqual(ls, rs)) c.modified.insert(itemPath);
    } else if (ls.length >= 2) {
      if (rs.length > 0) walk(n.items, undefined, rs[0], itemPath, c);
      c.removed.insert(itemPath);
    } else {
      if (ls.length > 0) walk(n.items, ls[0], undefined, itemPath, c);
      c.added.insert(itemPath);
    }
  }
  return false;
}

function compareMap(
  n: MapNode,
  lhs: Side,
  rhs: Side,
  path: Path,
  c: Comparison,
  skip?: FieldSet,
): boolean {
  const l = isJsonObject(lhs) ? lhs : undefined;
  const r = isJsonObject(rhs) ? rhs : undefined;
  if (n.atomic || (isEmpty(l, false) && isEmpty(r, false))) {
    leaf(path, lhs, rhs, c);
    return true;
  }
  const keys = new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})]);
  for (const key of keys) {
    const pe = { field: key };
    if (skip?.hasMember(pe)) continue;
    const t = fieldType(n, key) ?? { kind: 'deduced' };
    const below = skip?.withPrefix(pe);
    walk(t, l?.[key], r?.[key], [...path, pe], c, below && !below.empty() ? below : undefined);
  }
  return false;
}
