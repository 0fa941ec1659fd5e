// What the apiserver's strict decoder (sigs.k8s.io/json UnmarshalStrict into the Go type, or the
// CRD handler's pruning) reports for a body, and the object Go keeps: unknown fields dropped
// whatever the fieldValidation, duplicates resolved last-wins. Errors read `unknown field
// "spec.foo"` and `duplicate field "metadata.labels.a"`, in document order, each once.

import type { RawNode } from '../apimachinery/json-scan.js';
import type { JsonObject, JsonValue } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';
import type { SchemaNode } from './types.js';

export interface StrictResult {
  value: JsonValue;
  errors: string[];
}

/** sigs.k8s.io/json stops collecting after this many. */
const maxErrors = 100;

export function toRaw(v: JsonValue): RawNode {
  if (Array.isArray(v)) return { t: 'array', items: v.map(toRaw) };
  if (isJsonObject(v))
    return { t: 'object', entries: Object.entries(v).map(([k, x]) => [k, toRaw(x)]) };
  return { t: 'value', v };
}

export function rawValue(raw: RawNode): JsonValue {
  if (raw.t === 'value') return raw.v;
  if (raw.t === 'array') return raw.items.map(rawValue);
  const out: JsonObject = {};
  for (const [k, v] of raw.entries) out[k] = rawValue(v);
  return out;
}

/**
 * Walks `raw` against `root` (undefined: a kind without a schema, only duplicates count). Inside
 * a deduced node (RawExtension, FieldsV1) Go's custom decoders check nothing.
 */
export function strictDecode(raw: RawNode, root: SchemaNode | undefined): StrictResult {
  const errors: string[] = [];
  const seen = new Set<string>();
  const report = (kind: 'unknown' | 'duplicate', stack: string, field: string): void => {
    const message = `${kind} field ${JSON.stringify(stack === '' ? field : `${stack}.${field}`)}`;
    if (seen.has(message) || errors.length >= maxErrors) return;
    seen.add(message);
    errors.push(message);
  };
  const walk = (node: RawNode, schema: SchemaNode | undefined, stack: string): JsonValue => {
    if (schema?.kind === 'deduced') return rawValue(node);
    if (node.t === 'value') return node.v;
    // A value of the wrong JSON type is Go's decode error, not a strictness one: kept as sent.
    if (schema && (schema.kind === 'scalar' || (schema.kind === 'list') !== (node.t === 'array')))
      return rawValue(node);
    if (node.t === 'array') {
      const items = schema?.kind === 'list' ? schema.items : undefined;
      return node.items.map((item, i) => walk(item, items, `${stack}[${i}]`));
    }
    const out: JsonObject = {};
    const keys = new Set<string>();
    const isMap = schema?.kind === 'map';
    for (const [key, child] of node.entries) {
      const field = isMap ? schema.fields?.[key] : undefined;
      const type =
        schema === undefined ? undefined : isMap ? (field?.type ?? schema.values) : undefined;
      const known = schema === undefined || type !== undefined;
      if (!known) {
        report('unknown', stack, key);
        continue;
      }
      if (keys.has(key)) report('duplicate', stack, key);
      keys.add(key);
      const next = stack === '' ? key : `${stack}.${key}`;
      out[key] = walk(child, type, next);
    }
    return out;
  };
  return { value: walk(raw, root, ''), errors };
}

/** The object as Go keeps it, for values that cannot hold duplicates (patch results). */
export function pruneUnknown(value: JsonValue, root: SchemaNode | undefined): StrictResult {
  return strictDecode(toRaw(value), root);
}
