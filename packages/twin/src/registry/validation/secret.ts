// Secrets as pkg/apis/core/validation/validation.go checks them (ValidateSecret,
// ValidateSecretUpdate): ConfigMap-style keys, 1 MiB of data in all, the service-account name
// annotation a kubernetes.io/service-account-token Secret needs (the tokens controller adds the
// uid and the token later), an immutable type, and immutable ones. The other typed Secrets
// (dockercfg, basic-auth, ssh-auth, tls) keep only these generic rules: nothing in the twin
// reads them.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord, asString, deepEqual } from '../../apimachinery/types.js';
import { isConfigMapKey, nameIsDNSSubdomain } from './names.js';
import { fieldImmutable, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { key } from './path.js';

/** core.MaxSecretSize. */
export const maxSecretSize = 1024 * 1024;
export const serviceAccountTokenType = 'kubernetes.io/service-account-token';
export const serviceAccountNameKey = 'kubernetes.io/service-account.name';
export const serviceAccountUidKey = 'kubernetes.io/service-account.uid';
const immutableMessage = 'field is immutable when `immutable` is set';

export function validateSecret(secret: KubeObject): FieldError[] {
  const errs = validateObjectMeta(secret.metadata, true, nameIsDNSSubdomain, 'metadata', {
    kubeFinalizers: true,
  });
  const data = asRecord(secret['data']);
  let total = 0;
  for (const k of Object.keys(data).sort()) {
    for (const msg of isConfigMapKey(k)) errs.push(fieldError.invalid(key('data', k), k, msg));
    total += Buffer.from(asString(data[k]), 'base64').length;
  }
  if (total > maxSecretSize) errs.push(fieldError.tooLong('data', maxSecretSize));
  if (secret['type'] === serviceAccountTokenType) {
    const name = secret.metadata.annotations?.[serviceAccountNameKey] ?? '';
    if (name === '')
      errs.push(fieldError.required(key('metadata.annotations', serviceAccountNameKey)));
  }
  return errs;
}

export function validateSecretUpdate(secret: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObjectMetaUpdate(secret.metadata, old.metadata, 'metadata', {
    kubeFinalizers: true,
  });
  if ((secret['type'] ?? '') !== (old['type'] ?? ''))
    errs.push(fieldError.invalid('type', secret['type'] ?? '', fieldImmutable));
  if (old['immutable'] === true) {
    if (secret['immutable'] !== true)
      errs.push(fieldError.forbidden('immutable', immutableMessage));
    if (!deepEqual(secret['data'] ?? null, old['data'] ?? null))
      errs.push(fieldError.forbidden('data', immutableMessage));
  }
  return [...errs, ...validateSecret(secret)];
}
