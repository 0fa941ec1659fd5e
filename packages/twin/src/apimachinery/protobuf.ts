// The few protobuf bodies clients send the twin: client-go's typed clients (kubectl drain among
// them) encode DeleteOptions and policy/v1 Evictions as `application/vnd.kubernetes.protobuf`.
// The envelope is runtime.Unknown behind the `k8s\0` magic (apimachinery runtime/serializer/
// protobuf); the field numbers are those of k8s.io/api and apimachinery's generated.proto.

import { badRequest } from './errors.js';
import type { JsonObject } from './types.js';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type FieldValue = bigint | Buffer;
type Fields = Map<number, FieldValue[]>;

const noFields = (): Fields => new Map<number, FieldValue[]>();

function malformed(): never {
  throw badRequest('error decoding request body: invalid protobuf message');
}

function readVarint(buf: Buffer, at: number): [bigint, number] {
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
function fieldsOf(buf: Buffer): Fields {
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

function last(fields: Fields, n: number): FieldValue | undefined {
  const list = fields.get(n);
  return list?.[list.length - 1];
}

function str(fields: Fields, n: number): string | undefined {
  const v = last(fields, n);
  return Buffer.isBuffer(v) ? v.toString('utf8') : undefined;
}

function msg(fields: Fields, n: number): Fields | undefined {
  const v = last(fields, n);
  return Buffer.isBuffer(v) ? fieldsOf(v) : undefined;
}

function int(fields: Fields, n: number): number | undefined {
  const v = last(fields, n);
  return typeof v === 'bigint' ? Number(BigInt.asIntN(64, v)) : undefined;
}

function strings(fields: Fields, n: number): string[] {
  return (fields.get(n) ?? [])
    .filter((v): v is Buffer => Buffer.isBuffer(v))
    .map((b) => b.toString('utf8'));
}

/** metav1.DeleteOptions: gracePeriodSeconds 1, preconditions 2, orphanDependents 3, policy 4, dryRun 5. */
function deleteOptions(f: Fields): JsonObject {
  const out: JsonObject = {};
  const grace = int(f, 1);
  if (grace !== undefined) out['gracePeriodSeconds'] = grace;
  const pre = msg(f, 2);
  if (pre) {
    const p: JsonObject = {};
    const uid = str(pre, 1);
    const rv = str(pre, 2);
    if (uid !== undefined) p['uid'] = uid;
    if (rv !== undefined) p['resourceVersion'] = rv;
    out['preconditions'] = p;
  }
  const orphan = int(f, 3);
  if (orphan !== undefined) out['orphanDependents'] = orphan !== 0;
  const policy = str(f, 4);
  if (policy !== undefined) out['propagationPolicy'] = policy;
  const dryRun = strings(f, 5);
  if (dryRun.length > 0) out['dryRun'] = dryRun;
  return out;
}

/** The ObjectMeta fields a request body can meaningfully carry here: name 1, namespace 3, uid 5, RV 6. */
function objectMeta(f: Fields): JsonObject {
  const out: JsonObject = {};
  const entries: [string, number][] = [
    ['name', 1],
    ['generateName', 2],
    ['namespace', 3],
    ['uid', 5],
    ['resourceVersion', 6],
  ];
  for (const [key, n] of entries) {
    const v = str(f, n);
    if (v !== undefined && v !== '') out[key] = v;
  }
  return out;
}

const decoders: Readonly<Record<string, (raw: Fields) => JsonObject>> = {
  'v1/DeleteOptions': deleteOptions,
  'meta.k8s.io/v1/DeleteOptions': deleteOptions,
  // policy/v1 Eviction: metadata 1, deleteOptions 2.
  'policy/v1/Eviction': (f) => {
    const out: JsonObject = { metadata: objectMeta(msg(f, 1) ?? noFields()) };
    const options = msg(f, 2);
    if (options) out['deleteOptions'] = deleteOptions(options);
    return out;
  },
};

/**
 * Decodes a protobuf request body into the JSON object it stands for, or undefined when the twin
 * has no decoder for its kind (the caller answers 415 then, as it does for any other media type).
 */
export function decodeProtobuf(body: Buffer): JsonObject | undefined {
  if (body.length < magic.length || !body.subarray(0, magic.length).equals(magic)) {
    throw badRequest(
      'error decoding request body: provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
  }
  const unknown = fieldsOf(body.subarray(magic.length));
  const typeMeta = msg(unknown, 1) ?? noFields();
  const apiVersion = str(typeMeta, 1) ?? '';
  const kind = str(typeMeta, 2) ?? '';
  const decode = decoders[`${apiVersion}/${kind}`];
  if (!decode) return undefined;
  const raw = last(unknown, 2);
  return { apiVersion, kind, ...decode(fieldsOf(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0))) };
}
