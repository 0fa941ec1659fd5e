// JSON merge patch (RFC 7386), what `kubectl label`, `annotate` and `patch --type merge` send:
// objects merge recursively, `null` deletes a key, and anything else (lists too) replaces.

import type { JsonValue } from './types.js';
import { isJsonObject } from './types.js';

export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return structuredClone(patch);
  const result = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
