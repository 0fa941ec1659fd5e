// The protobuf wire format (varints, length-delimited fields, fixed 32/64-bit fields), read the
// way gogo-protobuf's generated Unmarshal methods in k8s.io/api read it.

export class ProtobufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufError';
  }
}

export type WireValue =
  { wire: 0; value: bigint } | { wire: 2; value: Uint8Array } | { wire: 1 | 5; value: Uint8Array };

export interface WireField {
  no: number;
  field: WireValue;
}

function readVarint(buf: Uint8Array, at: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && shift < 70n; i += 1) {
    const byte = buf[i] ?? 0;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [BigInt.asUintN(64, result), i + 1];
    shift += 7n;
  }
  throw new ProtobufError('unexpected EOF');
}

/** Every field of one message, in wire order. */
export function readFields(buf: Uint8Array): WireField[] {
  const out: WireField[] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, next] = readVarint(buf, at);
    at = next;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (no <= 0) throw new ProtobufError(`illegal tag ${no} (wire type ${wire})`);
    if (wire === 0) {
      const [value, after] = readVarint(buf, at);
      at = after;
      out.push({ no, field: { wire: 0, value } });
    } else if (wire === 2) {
      const [length, after] = readVarint(buf, at);
      const end = after + Number(length);
      if (end > buf.length) throw new ProtobufError('unexpected EOF');
      out.push({ no, field: { wire: 2, value: buf.subarray(after, end) } });
      at = end;
    } else if (wire === 1 || wire === 5) {
      const end = at + (wire === 1 ? 8 : 4);
      if (end > buf.length) throw new ProtobufError('unexpected EOF');
      out.push({ no, field: { wire, value: buf.subarray(at, end) } });
      at = end;
    } else {
      throw new ProtobufError(`illegal wireType ${wire}`);
    }
  }
  return out;
}

/** Packed repeated varints (proto3 style); gogo's proto2 encoders write them unpacked. */
export function readPackedVarints(buf: Uint8Array): bigint[] {
  const out: bigint[] = [];
  let at = 0;
  while (at < buf.length) {
    const [value, next] = readVarint(buf, at);
    out.push(value);
    at = next;
  }
  return out;
}

/** True when a field carries only zero values: what Go marshals for an unset field. */
export function isZeroField(field: WireValue): boolean {
  if (field.wire === 0) return field.value === 0n;
  if (field.wire === 2) {
    if (field.value.length === 0) return true;
    try {
      return readFields(field.value).every((f) => isZeroField(f.field));
    } catch {
      return false;
    }
  }
  return field.value.every((b) => b === 0);
}
