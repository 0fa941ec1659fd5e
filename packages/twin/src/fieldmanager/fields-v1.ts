// The FieldsV1 encoding of a field set (fieldpath/serialize.go): a JSON object keyed by
// serialized path elements in sorted order, `{}` for a leaf member and `".": {}` for a member
// that also has children.

import type { JsonObject, JsonValue } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';
import { FieldSet } from './field-set.js';
import type { PathElement } from './path-element.js';
import { comparePathElements, parseElement, serializeElement } from './path-element.js';

function emit(set: FieldSet, includeSelf: boolean): JsonObject {
  const out: JsonObject = {};
  const members = set.sortedMembers();
  const children = set.sortedChildren();
  if (includeSelf && (members.length > 0 || children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const m = members[mi];
    const c = children[ci];
    const order = m && c ? comparePathElements(m, c.pe) : m ? -1 : 1;
    if (order < 0 && m) {
      out[serializeElement(m)] = {};
      mi += 1;
    } else if (c) {
      out[serializeElement(c.pe)] = emit(c.set, order === 0);
      if (order === 0) mi += 1;
      ci += 1;
    }
  }
  return out;
}

// Sets are never changed once built, and writers repeat the same sets (every pod of a DaemonSet
// has its creator's), so both directions are cached.
const encoded = new WeakMap<FieldSet, JsonObject>();
const decoded = new Map<string, FieldSet>();
const maxDecoded = 4096;

export function toFieldsV1(set: FieldSet): JsonObject {
  let out = encoded.get(set);
  if (!out) {
    out = emit(set, false);
    encoded.set(set, out);
  }
  return out;
}

/** Reads a FieldsV1 object; throws on a malformed element (the entry is then invalid). */
export function fromFieldsV1(fields: JsonValue | undefined): FieldSet {
  const key = JSON.stringify(fields ?? {});
  const hit = decoded.get(key);
  if (hit) return hit;
  const set = parseFields(fields);
  if (decoded.size >= maxDecoded) decoded.delete(decoded.keys().next().value ?? '');
  decoded.set(key, set);
  encoded.set(set, emit(set, false));
  return set;
}

function parseFields(fields: JsonValue | undefined): FieldSet {
  const set = new FieldSet();
  const walk = (node: JsonValue, prefix: PathElement[]): void => {
    if (!isJsonObject(node)) throw new Error('FieldsV1 must be an object');
    const keys = Object.keys(node);
    if (keys.length === 0 && prefix.length > 0) set.insert(prefix);
    for (const key of keys) {
      if (key === '.') {
        set.insert(prefix);
        continue;
      }
      const pe = parseElement(key);
      if (pe) walk(node[key] ?? {}, [...prefix, pe]);
    }
  };
  walk(fields ?? {}, []);
  return set;
}
