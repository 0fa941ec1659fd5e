// The structural schema of a served kind, as the apiserver's OpenAPI models give it to
// structured-merge-diff (sigs.k8s.io/structured-merge-diff/v4/schema: scalars, maps with fields or
// element types, lists that are atomic, sets or maps with keys) plus the Go facts the apiserver
// acts on: which fields its decoder knows, which Go always emits, and the strategic-merge tags.

import type { JsonValue } from '../apimachinery/types.js';

/** `untyped` is int-or-string and Quantity: any scalar passes. */
export type ScalarType = 'string' | 'numeric' | 'boolean' | 'untyped';

export interface ScalarNode {
  kind: 'scalar';
  scalar: ScalarType;
}

/** A Go struct or a map[string]X; a CRD object may have both fields and `values`. */
export interface MapNode {
  kind: 'map';
  /** The Go type name, for structs. */
  name?: string;
  fields?: Readonly<Record<string, FieldDef>>;
  /** map[string]X, or x-kubernetes-preserve-unknown-fields (a deduced node). */
  values?: SchemaNode;
  /** +structType=atomic / +mapType=atomic: owned and replaced as one value. */
  atomic: boolean;
}

export type ListType = 'atomic' | 'set' | 'map';

export interface ListNode {
  kind: 'list';
  items: SchemaNode;
  /** +listType (atomic when unmarked, as schemaconv defaults it). */
  listType: ListType;
  /** +listMapKey, in declaration order. */
  keys: readonly string[];
}

/** No schema: RawExtension, FieldsV1, preserve-unknown-fields. Maps granular, lists atomic. */
export interface DeducedNode {
  kind: 'deduced';
}

export type SchemaNode = ScalarNode | MapNode | ListNode | DeducedNode;

export interface FieldDef {
  type: SchemaNode;
  /** Go's encoder emits the field for a zero value (no omitempty, or a non-pointer struct). */
  zero?: boolean;
  /** +default, used for list-map keys the item omits (a port's protocol). */
  default?: JsonValue;
  /** The strategic-merge tags: patchStrategy ("merge", "retainKeys", "merge,retainKeys"). */
  patchStrategy?: string;
  patchMergeKey?: string;
}

/** A served kind: its root node and the fields its strategies reset (GetResetFields). */
export interface KindSchema {
  apiVersion: string;
  kind: string;
  root: MapNode;
  /** Paths (dotted) main-resource writes never own: `status` where a status subresource exists. */
  resetFields?: readonly string[];
  /** Paths status-subresource writes never own. */
  statusResetFields?: readonly string[];
  /** A custom resource: strategic merge patches are refused, unknown fields are pruned. */
  custom?: boolean;
}

// Builders, so each kind family's file reads like its types.go.

export const str: ScalarNode = { kind: 'scalar', scalar: 'string' };
export const num: ScalarNode = { kind: 'scalar', scalar: 'numeric' };
export const bool: ScalarNode = { kind: 'scalar', scalar: 'boolean' };
export const untyped: ScalarNode = { kind: 'scalar', scalar: 'untyped' };
export const deduced: DeducedNode = { kind: 'deduced' };

type FieldInput = SchemaNode | FieldDef;

function isFieldDef(v: FieldInput): v is FieldDef {
  return 'type' in v;
}

export function struct(
  name: string,
  fields: Readonly<Record<string, FieldInput>>,
  options: { atomic?: boolean; values?: SchemaNode } = {},
): MapNode {
  const out: Record<string, FieldDef> = {};
  for (const [key, value] of Object.entries(fields))
    out[key] = isFieldDef(value) ? value : { type: value };
  return {
    kind: 'map',
    name,
    fields: out,
    atomic: options.atomic ?? false,
    ...(options.values ? { values: options.values } : {}),
  };
}

/** A field with extras: `f(str, { zero: true })`. */
export function f(type: SchemaNode, extras: Omit<FieldDef, 'type'>): FieldDef {
  return { type, ...extras };
}

export function mapOf(values: SchemaNode, atomic = false): MapNode {
  return { kind: 'map', values, atomic };
}

export function atomicList(items: SchemaNode): ListNode {
  return { kind: 'list', items, listType: 'atomic', keys: [] };
}

export function setList(items: SchemaNode): ListNode {
  return { kind: 'list', items, listType: 'set', keys: [] };
}

export function mapList(items: SchemaNode, ...keys: string[]): ListNode {
  return { kind: 'list', items, listType: 'map', keys };
}
