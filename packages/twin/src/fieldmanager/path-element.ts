// Path elements of structured-merge-diff (fieldpath/element.go, serialize-pe.go): a field name,
// a list item by its key fields, a set item by its value, or an index; their total order, the
// `.spec.containers[name="x"]` form used in messages, and the `f:`/`k:`/`v:`/`i:` form of FieldsV1.

import type { JsonValue } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';

export type PathElement =
  | { readonly field: string }
  /** Key fields sorted by name, as value.FieldList.Sort leaves them. */
  | { readonly key: readonly (readonly [string, JsonValue])[] }
  | { readonly value: JsonValue }
  | { readonly index: number };

export type Path = readonly PathElement[];

function rank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null) return 4;
  return 5;
}

function cmp<T extends string | number>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** value.Compare: numbers, then strings, booleans, lists, maps and null. */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return cmp(a, b);
  if (typeof a === 'string' && typeof b === 'string') return cmp(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
      if (i >= a.length) return -1;
      if (i >= b.length) return 1;
      const c = compareValues(a[i] ?? null, b[i] ?? null);
      if (c !== 0) return c;
    }
    return 0;
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      if (!(k in a)) return 1;
      if (!(k in b)) return -1;
      const c = compareValues(a[k] ?? null, b[k] ?? null);
      if (c !== 0) return c;
    }
  }
  return 0;
}

function kindRank(pe: PathElement): number {
  if ('field' in pe) return 0;
  if ('key' in pe) return 1;
  if ('value' in pe) return 2;
  return 3;
}

export function comparePathElements(a: PathElement, b: PathElement): number {
  const ka = kindRank(a);
  const kb = kindRank(b);
  if (ka !== kb) return ka - kb;
  if ('field' in a && 'field' in b) return cmp(a.field, b.field);
  if ('key' in a && 'key' in b) {
    for (let i = 0; ; i += 1) {
      const x = a.key[i];
      const y = b.key[i];
      if (!x && !y) return 0;
      if (!x) return -1;
      if (!y) return 1;
      const c = cmp(x[0], y[0]) || compareValues(x[1], y[1]);
      if (c !== 0) return c;
    }
  }
  if ('value' in a && 'value' in b) return compareValues(a.value, b.value);
  if ('index' in a && 'index' in b) return a.index - b.index;
  return 0;
}

/** value.ToString: strings Go-quoted, numbers and booleans bare. */
export function valueString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  return Object.entries(v)
    .map(([k, x]) => `${k}=${valueString(x)}`)
    .join('');
}

/** PathElement.String: `.name`, `[name="x",protocol="TCP"]`, `[=value]`, `[0]`. */
export function elementString(pe: PathElement): string {
  if ('field' in pe) return `.${pe.field}`;
  if ('key' in pe) return `[${pe.key.map(([k, v]) => `${k}=${valueString(v)}`).join(',')}]`;
  if ('value' in pe) return `[=${valueString(pe.value)}]`;
  return `[${pe.index}]`;
}

export function pathString(path: Path): string {
  return path.map(elementString).join('');
}

/** The FieldsV1 key of an element: `f:name`, `k:{"name":"x"}`, `v:"x"`, `i:0`. */
export function serializeElement(pe: PathElement): string {
  if ('field' in pe) return `f:${pe.field}`;
  if ('key' in pe)
    return `k:{${pe.key.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
  if ('value' in pe) return `v:${JSON.stringify(pe.value)}`;
  return `i:${pe.index}`;
}

/** DeserializePathElement; unknown prefixes return undefined (they are dropped, as upstream). */
export function parseElement(s: string): PathElement | undefined {
  const kind = s.slice(0, 2);
  const rest = s.slice(2);
  switch (kind) {
    case 'f:':
      return { field: rest };
    case 'v:':
      return { value: JSON.parse(rest) as JsonValue };
    case 'i:':
      return { index: Number(rest) };
    case 'k:': {
      const parsed = JSON.parse(rest) as Record<string, JsonValue>;
      return { key: sortedKey(Object.entries(parsed)) };
    }
    default:
      if (s.length < 2 || s[1] !== ':')
        throw new Error(`invalid path element ${JSON.stringify(s)}`);
      return undefined;
  }
}

export function sortedKey(
  fields: (readonly [string, JsonValue])[],
): (readonly [string, JsonValue])[] {
  return [...fields].sort((a, b) => cmp(a[0], b[0]));
}

const ids = new WeakMap<PathElement, string>();

/** A stable map key for an element (equal elements give equal strings); keys computed once. */
export function elementId(pe: PathElement): string {
  if ('field' in pe) return `f:${pe.field}`;
  let id = ids.get(pe);
  if (id === undefined) {
    id = serializeElement(pe);
    ids.set(pe, id);
  }
  return id;
}
