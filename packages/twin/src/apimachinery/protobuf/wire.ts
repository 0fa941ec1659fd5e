// Protobuf wire format, just enough to read the messages of k8s.io/api's generated.proto: fields
// by number, varints (int64 as two's complement), strings and nested messages.

import { badRequest } from '../errors.js';
import type { JsonObject } from '../types.js';

export type FieldValue = bigint | Buffer;
export type Fields = Map<number, FieldValue[]>;

export const noFields = (): Fields => new Map<number, FieldValue[]>();

function malformed(): never {
  throw badRequest('error decoding request body: invalid protobuf message');
}

export function readVarint(buf: Buffer, at: number): [bigint, number] {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && i < at + 10; i += 1) {
    const byte = buf[i] ?? 0;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [value, i + 1];
    shift += 7n;
  }
  return malformed();
}

/** Splits a message into its fields; 64- and 32-bit fields (unused here) are skipped. */
export function fieldsOf(buf: Buffer): Fields {
  const fields = noFields();
  let at = 0;
  while (at < buf.length) {
    const [tag, next] = readVarint(buf, at);
    at = next;
    const field = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    let value: FieldValue | undefined;
    if (wire === 0) [value, at] = readVarint(buf, at);
    else if (wire === 2) {
      const [length, start] = readVarint(buf, at);
      const end = start + Number(length);
      if (end > buf.length) malformed();
      value = buf.subarray(start, end);
      at = end;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else malformed();
    if (value === undefined) continue;
    const list = fields.get(field) ?? [];
    list.push(value);
    fields.set(field, list);
  }
  return fields;
}

export function last(fields: Fields, n: number): FieldValue | undefined {
  const list = fields.get(n);
  return list?.[list.length - 1];
}

export function str(fields: Fields, n: number): string | undefined {
  const v = last(fields, n);
  return Buffer.isBuffer(v) ? v.toString('utf8') : undefined;
}

export function msg(fields: Fields, n: number): Fields | undefined {
  const v = last(fields, n);
  return Buffer.isBuffer(v) ? fieldsOf(v) : undefined;
}

export function int(fields: Fields, n: number): number | undefined {
  const v = last(fields, n);
  return typeof v === 'bigint' ? Number(BigInt.asIntN(64, v)) : undefined;
}

export function strings(fields: Fields, n: number): string[] {
  return (fields.get(n) ?? [])
    .filter((v): v is Buffer => Buffer.isBuffer(v))
    .map((b) => b.toString('utf8'));
}

export function stringMap(f: Fields, n: number): JsonObject | undefined {
  const entries = (f.get(n) ?? []).filter((v): v is Buffer => Buffer.isBuffer(v));
  if (entries.length === 0) return undefined;
  const out: JsonObject = {};
  for (const entry of entries.map(fieldsOf)) out[str(entry, 1) ?? ''] = str(entry, 2) ?? '';
  return out;
}

export function messages(f: Fields, n: number): Fields[] {
  return (f.get(n) ?? []).filter((v): v is Buffer => Buffer.isBuffer(v)).map(fieldsOf);
}
