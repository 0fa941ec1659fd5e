// Strategic merge patch for built-in kinds (kubectl's default patch type): lists with a merge key
// (containers, env, volumes...) merge item by item; `$patch`, `$setElementOrder`,
// `$deleteFromPrimitiveList` and `$retainKeys` directives behave as in apimachinery. Which lists
// merge, and by which key, comes from the kind's schema (the Go patchStrategy/patchMergeKey tags).

import type { JsonObject, JsonValue } from './types.js';
import { isJsonObject, omit } from './types.js';
import { rootNode } from '../schema/index.js';
import type { MapNode } from '../schema/types.js';

export class StrategicMergeError extends Error {}

/** How a list field merges: by a key, as a set of primitives, or (absent) replaced whole. */
export type ListStrategy = { mergeKey: string } | { primitives: true };

/** Dotted field paths (list items add no segment) to list strategies. */
export type PatchSchema = ReadonlyMap<string, ListStrategy>;

const schemas = new Map<MapNode, PatchSchema>();

/** The list strategies a kind's schema declares through its patchStrategy/patchMergeKey tags. */
function collect(node: MapNode, prefix: string, out: Map<string, ListStrategy>): void {
  for (const [name, def] of Object.entries(node.fields ?? {})) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const t = def.type;
    if (t.kind === 'list') {
      if (def.patchStrategy?.split(',').includes('merge')) {
        if (def.patchMergeKey && t.items.kind === 'map')
          out.set(path, { mergeKey: def.patchMergeKey });
        else if (t.items.kind === 'scalar') out.set(path, { primitives: true });
      }
      if (t.items.kind === 'map') collect(t.items, path, out);
    } else if (t.kind === 'map') {
      collect(t, path, out);
    }
  }
}

export function patchSchemaFor(apiVersion: string, kind: string): PatchSchema {
  const root = rootNode(apiVersion, kind);
  if (!root) return new Map();
  let s = schemas.get(root);
  if (!s) {
    const out = new Map<string, ListStrategy>();
    collect(root, '', out);
    s = out;
    schemas.set(root, s);
  }
  return s;
}

const orderPrefix = '$setElementOrder/';
const deletePrimitivesPrefix = '$deleteFromPrimitiveList/';

function keyOfItem(item: JsonValue, key: string): string | undefined {
  if (!isJsonObject(item)) return undefined;
  const v = item[key];
  return v === undefined ? undefined : JSON.stringify(v);
}

function mergeList(
  original: JsonValue | undefined,
  patch: JsonValue[],
  strategy: ListStrategy | undefined,
  path: string,
  s: PatchSchema,
): JsonValue[] {
  if (patch.some((p) => isJsonObject(p) && p['$patch'] === 'replace')) {
    return patch.filter((p) => !(isJsonObject(p) && p['$patch'] === 'replace'));
  }
  const base = Array.isArray(original) ? [...original] : [];
  if (!strategy) return structuredClone(patch);
  if ('primitives' in strategy) {
    for (const v of patch)
      if (!base.some((b) => JSON.stringify(b) === JSON.stringify(v))) base.push(v);
    return base;
  }
  const key = strategy.mergeKey;
  for (const item of patch) {
    const k = keyOfItem(item, key);
    if (!isJsonObject(item) || k === undefined)
      throw new StrategicMergeError(
        `map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`,
      );
    const at = base.findIndex((b) => keyOfItem(b, key) === k);
    if (item['$patch'] === 'delete') {
      if (at >= 0) base.splice(at, 1);
    } else if (at >= 0) {
      base[at] = mergeMap(base[at], item, path, s) ?? {};
    } else {
      base.push(mergeMap(undefined, item, path, s) ?? {});
    }
  }
  return base;
}

function applyOrder(
  list: JsonValue[],
  order: JsonValue[],
  strategy: ListStrategy | undefined,
): JsonValue[] {
  const id = (v: JsonValue): string =>
    strategy && 'mergeKey' in strategy
      ? (keyOfItem(v, strategy.mergeKey) ?? '')
      : JSON.stringify(v);
  const rank = new Map(order.map((v, i) => [id(v), i]));
  return list
    .map((v, i) => ({ v, i, r: rank.get(id(v)) }))
    .sort((a, b) => (a.r ?? Infinity) - (b.r ?? Infinity) || a.i - b.i)
    .map((e) => e.v);
}

function mergeMap(
  original: JsonValue | undefined,
  patch: JsonObject,
  path: string,
  s: PatchSchema,
): JsonValue | undefined {
  const directive = patch['$patch'];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') {
    return structuredClone(omit(patch, '$patch') as JsonObject);
  }
  const result: JsonObject = isJsonObject(original) ? { ...original } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith(orderPrefix)) continue;
    if (key.startsWith(deletePrimitivesPrefix)) {
      const field = key.slice(deletePrimitivesPrefix.length);
      const drop = new Set((Array.isArray(value) ? value : []).map((v) => JSON.stringify(v)));
      const current = result[field];
      if (Array.isArray(current))
        result[field] = current.filter((v) => !drop.has(JSON.stringify(v)));
      continue;
    }
    const childPath = path === '' ? key : `${path}.${key}`;
    if (value === null) {
      delete result[key];
    } else if (Array.isArray(value)) {
      result[key] = mergeList(result[key], value, s.get(childPath), childPath, s);
    } else if (isJsonObject(value)) {
      const merged = mergeMap(result[key], value, childPath, s);
      if (merged === undefined) delete result[key];
      else result[key] = merged;
    } else {
      result[key] = value;
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith(orderPrefix) || !Array.isArray(value)) continue;
    const field = key.slice(orderPrefix.length);
    const current = result[field];
    const childPath = path === '' ? field : `${path}.${field}`;
    if (Array.isArray(current)) result[field] = applyOrder(current, value, s.get(childPath));
  }
  const retain = patch['$retainKeys'];
  if (Array.isArray(retain)) {
    const keep = new Set(retain.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))));
    for (const key of Object.keys(result)) if (!keep.has(key)) delete result[key];
  }
  return result;
}

/** Applies a strategic merge patch to `original` for an object of the given kind. */
export function strategicMerge(
  original: JsonValue,
  patch: JsonValue,
  apiVersion: string,
  kind: string,
): JsonValue {
  if (!isJsonObject(patch))
    throw new StrategicMergeError('a strategic merge patch must be a JSON object');
  return mergeMap(original, patch, '', patchSchemaFor(apiVersion, kind)) ?? {};
}
