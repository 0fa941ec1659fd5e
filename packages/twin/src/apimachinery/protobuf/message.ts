// Decodes one protobuf message into the JSON its Go type marshals to: each field by its number
// and JSON name, the zero values that `omitempty` drops left out, metav1.Time and MicroTime as
// their JSON strings. A non-zero field the schema does not know is refused rather than dropped,
// so a partial schema can never lose data silently.

import { microTimeAt } from '../micro-time.js';
import type { JsonObject, JsonValue } from '../types.js';
import type { WireValue } from './wire.js';
import { isZeroField, ProtobufError, readFields, readPackedVarints } from './wire.js';

export type Scalar = 'string' | 'bytes' | 'bool' | 'int32' | 'int64';
export type Special = 'time' | 'microTime' | 'intOrString' | 'quantity' | 'rawJson';
export type FieldType =
  Scalar | Special | MessageSchema | { map: Scalar | Special | MessageSchema };

export interface FieldSpec {
  name: string;
  type: FieldType;
  repeated?: boolean;
  /** A Go pointer (or a field without omitempty): kept in the JSON even when zero. */
  keep?: boolean;
}

export interface MessageSchema {
  message: string;
  fields: Readonly<Record<number, FieldSpec>>;
}

export function message(name: string, fields: Record<number, FieldSpec>): MessageSchema {
  return { message: name, fields };
}

const text = new TextDecoder('utf-8');

function want(wire: WireValue, expected: 0 | 2, where: string): void {
  if (wire.wire !== expected) throw new ProtobufError(`wrong wireType = ${wire.wire} for ${where}`);
}

function int64(v: bigint): number {
  return Number(BigInt.asIntN(64, v));
}

function timestamp(buf: Uint8Array, micro: boolean): string | null {
  if (buf.length === 0) return null;
  let seconds = 0;
  let nanos = 0;
  for (const f of readFields(buf)) {
    if (f.field.wire !== 0) throw new ProtobufError('wrong wireType in Timestamp');
    if (f.no === 1) seconds = int64(f.field.value);
    else if (f.no === 2) nanos = int64(f.field.value);
  }
  const ms = seconds * 1000 + (micro ? Math.floor(nanos / 1000) / 1000 : 0);
  if (micro) return microTimeAt(ms);
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function decodeValue(type: FieldType, wire: WireValue, where: string): JsonValue {
  if (typeof type === 'object' && 'map' in type) throw new ProtobufError(`map as value: ${where}`);
  if (typeof type === 'object') {
    want(wire, 2, where);
    return decodeMessage(type, wire.value as Uint8Array);
  }
  switch (type) {
    case 'string':
      want(wire, 2, where);
      return text.decode(wire.value as Uint8Array);
    case 'bytes':
      want(wire, 2, where);
      return Buffer.from(wire.value as Uint8Array).toString('base64');
    case 'bool':
      want(wire, 0, where);
      return wire.value !== 0n;
    case 'int32':
    case 'int64':
      want(wire, 0, where);
      return int64(wire.value as bigint);
    case 'time':
    case 'microTime':
      want(wire, 2, where);
      return timestamp(wire.value as Uint8Array, type === 'microTime');
    case 'quantity':
      want(wire, 2, where);
      return decodeMessage(quantity, wire.value as Uint8Array)['string'] ?? '';
    case 'intOrString': {
      want(wire, 2, where);
      const v = decodeMessage(intOrString, wire.value as Uint8Array);
      return v['type'] === 1 ? (v['strVal'] ?? '') : (v['intVal'] ?? 0);
    }
    case 'rawJson': {
      want(wire, 2, where);
      const raw = decodeMessage(rawBytes, wire.value as Uint8Array)['raw'];
      return typeof raw === 'string'
        ? (JSON.parse(Buffer.from(raw, 'base64').toString()) as JsonValue)
        : {};
    }
  }
}

function isZeroJson(v: JsonValue): boolean {
  return v === '' || v === 0 || v === false || v === null;
}

export function decodeMessage(schema: MessageSchema, buf: Uint8Array): JsonObject {
  const out: JsonObject = {};
  for (const { no, field } of readFields(buf)) {
    const spec = schema.fields[no];
    const where = `${schema.message}.${spec?.name ?? String(no)}`;
    if (!spec) {
      if (isZeroField(field)) continue;
      throw new ProtobufError(`the twin does not decode field ${no} of ${schema.message}`);
    }
    if (typeof spec.type === 'object' && 'map' in spec.type) {
      want(field, 2, where);
      const entry = decodeMessage(
        message(`${where} entry`, {
          1: { name: 'key', type: 'string', keep: true },
          2: { name: 'value', type: spec.type.map, keep: true },
        }),
        field.value as Uint8Array,
      );
      const map = (out[spec.name] ?? {}) as JsonObject;
      const value = entry['value'] ?? (typeof spec.type.map === 'object' ? {} : '');
      map[typeof entry['key'] === 'string' ? entry['key'] : ''] = value;
      out[spec.name] = map;
      continue;
    }
    if (spec.repeated) {
      const list = (out[spec.name] ?? []) as JsonValue[];
      if (
        field.wire === 2 &&
        (spec.type === 'int32' || spec.type === 'int64' || spec.type === 'bool')
      ) {
        for (const v of readPackedVarints(field.value))
          list.push(spec.type === 'bool' ? v !== 0n : int64(v));
      } else {
        list.push(decodeValue(spec.type, field, where));
      }
      out[spec.name] = list;
      continue;
    }
    const value = decodeValue(spec.type, field, where);
    // Time zero is null in Go's JSON; every other zero scalar is dropped by omitempty.
    if (isZeroJson(value) && !(spec.keep && value !== null)) delete out[spec.name];
    else out[spec.name] = value;
  }
  return out;
}

const quantity = message('Quantity', { 1: { name: 'string', type: 'string' } });
const intOrString = message('IntOrString', {
  1: { name: 'type', type: 'int64' },
  2: { name: 'intVal', type: 'int32' },
  3: { name: 'strVal', type: 'string' },
});
const rawBytes = message('FieldsV1', { 1: { name: 'raw', type: 'bytes' } });
