// ConfigMaps as pkg/apis/core/validation/validation.go checks them (ValidateConfigMap,
// ValidateConfigMapUpdate): keys, no key in both maps, 1 MiB of data in all, immutable ones.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord, deepEqual, asString } from '../../apimachinery/types.js';
import { isConfigMapKey, nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { key } from './path.js';

/** core.MaxSecretSize, which ConfigMaps share: 1 MiB of values. */
export const maxConfigMapSize = 1024 * 1024;
const immutableMessage = 'field is immutable when `immutable` is set';

export function validateConfigMap(cm: KubeObject): FieldError[] {
  const errs = validateObjectMeta(cm.metadata, true, nameIsDNSSubdomain, 'metadata', {
    kubeFinalizers: true,
  });
  const data = asRecord(cm['data']);
  const binary = asRecord(cm['binaryData']);
  let total = 0;
  for (const k of Object.keys(data).sort()) {
    for (const msg of isConfigMapKey(k)) errs.push(fieldError.invalid(key('data', k), k, msg));
    if (Object.hasOwn(binary, k))
      errs.push(fieldError.invalid(key('data', k), k, 'duplicate of key present in binaryData'));
    total += Buffer.byteLength(asString(data[k]), 'utf8');
  }
  for (const k of Object.keys(binary).sort()) {
    for (const msg of isConfigMapKey(k))
      errs.push(fieldError.invalid(key('binaryData', k), k, msg));
    total += Buffer.from(asString(binary[k]), 'base64').length;
  }
  // An empty path: the error refers to the whole object, and field.Path prints it as `[]`.
  if (total > maxConfigMapSize) errs.push(fieldError.tooLong('[]', maxConfigMapSize));
  return errs;
}

export function validateConfigMapUpdate(cm: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObjectMetaUpdate(cm.metadata, old.metadata, 'metadata', {
    kubeFinalizers: true,
  });
  if (old['immutable'] === true) {
    if (cm['immutable'] !== true) errs.push(fieldError.forbidden('immutable', immutableMessage));
    // reflect.DeepEqual: a nil map and an empty one differ.
    if (!deepEqual(cm['data'] ?? null, old['data'] ?? null))
      errs.push(fieldError.forbidden('data', immutableMessage));
    if (!deepEqual(cm['binaryData'] ?? null, old['binaryData'] ?? null))
      errs.push(fieldError.forbidden('binaryData', immutableMessage));
  }
  return [...errs, ...validateConfigMap(cm)];
}
