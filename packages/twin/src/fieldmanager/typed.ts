// Values against a schema, as structured-merge-diff's typed package walks them (typed/helpers.go,
// validate.go, tofieldset.go): which node a value resolves to, the path element of a list item,
// the validation of an applied configuration, and the set of fields a value sets.

import type { JsonValue } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';
import type { ListNode, MapNode, SchemaNode } from '../schema/types.js';
import { FieldSet } from './field-set.js';
import type { Path, PathElement } from './path-element.js';
import { elementId, elementString, sortedKey } from './path-element.js';

const deducedList: ListNode = {
  kind: 'list',
  items: { kind: 'deduced' },
  listType: 'atomic',
  keys: [],
};
const deducedMap: MapNode = { kind: 'map', values: { kind: 'deduced' }, atomic: false };

/** deduceAtom for the deduced type: maps stay granular, lists atomic, the rest scalars. */
export function resolve(node: SchemaNode, value: JsonValue | undefined): SchemaNode {
  if (node.kind !== 'deduced') return node;
  if (Array.isArray(value)) return deducedList;
  if (isJsonObject(value)) return deducedMap;
  return { kind: 'scalar', scalar: 'untyped' };
}

/** The type of a map's entry: the declared field, else the element type (maps, CRD leftovers). */
export function fieldType(node: MapNode, key: string): SchemaNode | undefined {
  return node.fields?.[key]?.type ?? node.values;
}

/** listItemToPathElement; a string is the error upstream reports for the item. */
export function itemElement(list: ListNode, item: JsonValue): PathElement | string {
  if (list.listType === 'atomic') return 'invalid indexing of non-associative list';
  if (list.keys.length > 0) {
    if (item === null) return 'associative list with keys may not have a null element';
    if (!isJsonObject(item)) return 'associative list with keys may not have non-map elements';
    const fields = list.items.kind === 'map' ? list.items.fields : undefined;
    const key: [string, JsonValue][] = [];
    for (const name of list.keys) {
      const v = item[name];
      const def = fields?.[name]?.default;
      if (v !== undefined) key.push([name, v]);
      else if (def !== undefined) key.push([name, def]);
      else
        return `associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`;
    }
    return { key: sortedKey(key) };
  }
  if (isJsonObject(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return { value: item };
}

export interface ValidationError {
  path: string;
  message: string;
}

/** ValidationErrors.Error(): one error bare, several under `errors:`. */
export function validationMessage(errors: readonly ValidationError[]): string {
  const one = (e: ValidationError): string =>
    e.path === '' ? e.message : `${e.path}: ${e.message}`;
  if (errors.length === 1 && errors[0]) return one(errors[0]);
  return ['errors:', ...errors.map((e) => `  ${one(e)}`)].join('\n');
}

function goType(v: JsonValue): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return v === null ? '<nil>' : 'map[string]interface {}';
}

function scalarError(node: SchemaNode, v: JsonValue): string | undefined {
  if (node.kind !== 'scalar' || v === null) return undefined;
  const isScalar = typeof v !== 'object';
  switch (node.scalar) {
    case 'numeric':
      return typeof v === 'number'
        ? undefined
        : `expected numeric (int or float), got ${goType(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got ${JSON.stringify(v)}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got ${JSON.stringify(v)}`;
    case 'untyped':
      return isScalar ? undefined : `expected any scalar, got ${JSON.stringify(v)}`;
    default:
      return undefined;
  }
}

/** typed.Validate without AllowDuplicates: what an applied configuration must satisfy. */
export function validate(node: SchemaNode, value: JsonValue, path = ''): ValidationError[] {
  const n = resolve(node, value);
  if (n.kind === 'scalar') {
    const message = scalarError(n, value);
    return message ? [{ path, message }] : [];
  }
  if (n.kind === 'deduced' || value === null) return [];
  if (n.kind === 'list') {
    if (!Array.isArray(value))
      return [{ path, message: `expected list, got ${JSON.stringify(value)}` }];
    const errors: ValidationError[] = [];
    const seen = new Set<string>();
    for (const [i, item] of value.entries()) {
      let pe: PathElement = { index: i };
      if (n.listType !== 'atomic') {
        const got = itemElement(n, item);
        if (typeof got === 'string') return [...errors, { path, message: `element ${i}: ${got}` }];
        pe = got;
        const id = elementId(pe);
        if (seen.has(id))
          errors.push({ path, message: `duplicate entries for key ${elementString(pe)}` });
        seen.add(id);
      }
      errors.push(...validate(n.items, item, path + elementString(pe)));
    }
    return errors;
  }
  if (!isJsonObject(value))
    return [{ path, message: `expected map, got ${JSON.stringify(value)}` }];
  const errors: ValidationError[] = [];
  for (const key of Object.keys(value).sort()) {
    const child = fieldType(n, key);
    if (!child) {
      errors.push({ path: `${path}.${key}`, message: 'field not declared in schema' });
      break;
    }
    errors.push(...validate(child, value[key] ?? null, `${path}.${key}`));
  }
  return errors;
}

/** TypedValue.ToFieldSet: the leaves, list items and empty or untyped map entries a value sets. */
export function toFieldSet(node: SchemaNode, value: JsonValue): FieldSet {
  const set = new FieldSet();
  const walk = (schema: SchemaNode, v: JsonValue, path: Path): void => {
    const n = resolve(schema, v);
    if (n.kind === 'scalar' || n.kind === 'deduced') {
      set.insert(path);
      return;
    }
    if (n.kind === 'list' ? n.listType === 'atomic' : n.atomic) {
      set.insert(path);
      return;
    }
    if (n.kind === 'list') {
      if (!Array.isArray(v)) return;
      const items = v.map((item) => ({ item, pe: itemElement(n, item) }));
      const count = new Map<string, number>();
      for (const { pe } of items)
        if (typeof pe !== 'string') count.set(elementId(pe), (count.get(elementId(pe)) ?? 0) + 1);
      const done = new Set<string>();
      for (const { item, pe } of items) {
        if (typeof pe === 'string') continue;
        const id = elementId(pe);
        const itemPath = [...path, pe];
        if ((count.get(id) ?? 0) > 1) {
          if (!done.has(id)) set.insert(itemPath);
          done.add(id);
          continue;
        }
        walk(n.items, item, itemPath);
        set.insert(itemPath);
      }
      return;
    }
    if (!isJsonObject(v)) return;
    for (const [key, child] of Object.entries(v)) {
      const t = fieldType(n, key) ?? { kind: 'deduced' };
      const childPath = [...path, { field: key }];
      walk(t, child, childPath);
      const declared = n.fields?.[key] !== undefined;
      if (child === null || (isJsonObject(child) && Object.keys(child).length === 0) || !declared)
        set.insert(childPath);
    }
  };
  walk(node, value, []);
  return set;
}
