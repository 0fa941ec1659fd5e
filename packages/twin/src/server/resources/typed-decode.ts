// The part of decoding a body into the Go type that the twin's loose JSON would otherwise skip:
// metav1.MicroTime fields, which only parse in the RFC3339Micro layout. A bad value is the
// apiserver's 400 from transformDecodeError (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
// rest.go): `Lease in version "v1" cannot be handled as a Lease: parsing time …`.

import { badRequest } from '../../apimachinery/errors.js';
import {
  formatMicroTime,
  jsonTypeError,
  MicroTimeError,
  parseMicroTime,
} from '../../apimachinery/micro-time.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { isJsonObject } from '../../apimachinery/types.js';
import type { ResourceDef } from '../../registry/resources.js';

/**
 * The MicroTime fields of each kind (by `group/Kind`), from the k8s.io/api types: `pointer`
 * fields (*MicroTime) vanish when null, `value` fields print as null.
 */
type Fields = Readonly<Record<string, 'pointer' | 'value'>>;
const microTimeFields: Readonly<Record<string, Fields>> = {
  'coordination.k8s.io/Lease': { 'spec.acquireTime': 'pointer', 'spec.renewTime': 'pointer' },
  '/Event': { eventTime: 'value', 'series.lastObservedTime': 'value' },
  'events.k8s.io/Event': { eventTime: 'value', 'series.lastObservedTime': 'value' },
};

/** Checks one MicroTime value; returns the canonical form, or null for JSON null. */
function decodeMicroTime(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw new MicroTimeError(jsonTypeError(value));
  return formatMicroTime(parseMicroTime(value));
}

/**
 * Visits fields in document order, as encoding/json does; the first bad value is the error
 * (json.Unmarshal keeps the first error a field's UnmarshalJSON returns).
 */
function walk(node: JsonObject, prefix: string, fields: Fields): void {
  for (const [key, value] of Object.entries(node)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const kind = fields[path];
    if (kind !== undefined) {
      const decoded = decodeMicroTime(value);
      if (decoded === null && kind === 'pointer') delete node[key];
      else node[key] = decoded;
    } else if (isJsonObject(value) && Object.keys(fields).some((f) => f.startsWith(`${path}.`))) {
      walk(value, path, fields);
    }
  }
}

/** Normalises the typed fields of `obj` in place, or throws the apiserver's decode error. */
export function decodeTypedFields(def: ResourceDef, obj: KubeObject): void {
  const fields = microTimeFields[`${def.group}/${def.kind}`];
  if (!fields) return;
  try {
    walk(obj as unknown as JsonObject, '', fields);
  } catch (error) {
    if (!(error instanceof MicroTimeError)) throw error;
    throw badRequest(
      `${def.kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: ${error.message}`,
    );
  }
}
