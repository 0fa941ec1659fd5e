// `application/vnd.kubernetes.protobuf` request bodies: the `k8s\x00` magic, then a
// runtime.Unknown (typeMeta, raw, contentEncoding, contentType) whose raw bytes are the object
// (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go). The object is
// turned into the JSON the same Go value would marshal to, so the rest of the twin sees JSON.

import type { JsonObject } from '../types.js';
import { asString } from '../types.js';
import { kindSchemas } from './kind-schemas.js';
import { decodeMessage, message } from './message.js';
import { str } from './meta-schemas.js';
import { ProtobufError } from './wire.js';

export { ProtobufError } from './wire.js';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';
const magic = [0x6b, 0x38, 0x73, 0x00];

const unknown = message('Unknown', {
  1: { name: 'typeMeta', type: message('TypeMeta', { 1: str('apiVersion'), 2: str('kind') }) },
  2: { name: 'raw', type: 'bytes' },
  3: str('contentEncoding'),
  4: str('contentType'),
});

/** The kinds whose protobuf form the twin can decode, as `group/version/Kind`. */
export function protobufKinds(): string[] {
  return Object.keys(kindSchemas);
}

/** Decodes a protobuf body; throws ProtobufError for data the twin cannot read. */
export function decodeProtobuf(body: Uint8Array): JsonObject {
  if (body.length < 4 || magic.some((b, i) => body[i] !== b)) {
    throw new ProtobufError(
      `provided data does not appear to be a protobuf message, expected prefix [${magic.join(' ')}]`,
    );
  }
  const envelope = decodeMessage(unknown, body.subarray(4));
  const typeMeta = (envelope['typeMeta'] ?? {}) as JsonObject;
  const apiVersion = asString(typeMeta['apiVersion']);
  const kind = asString(typeMeta['kind']);
  const schema = kindSchemas[`${apiVersion}/${kind}`];
  if (!schema) {
    throw new ProtobufError(
      `the twin decodes protobuf bodies only for ${protobufKinds().join(', ')}, not ${apiVersion}/${kind}; send application/json`,
    );
  }
  const raw = Buffer.from(asString(envelope['raw']), 'base64');
  return { kind, apiVersion, ...decodeMessage(schema, raw) };
}
