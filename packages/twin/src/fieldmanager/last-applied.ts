// kubectl's move from client-side to server-side apply (lastappliedmanager.go,
// lastappliedupdater.go): the `kubectl` manager may take fields its last-applied-configuration
// annotation still matches, and that annotation follows each server-side apply.

import type { JsonObject, JsonValue, KubeObject } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';
import { compare } from './compare.js';
import type { FieldSet } from './field-set.js';
import { withoutManagedFields } from './field-manager.js';
import type { KindContext } from './kind-context.js';
import { toFieldSet, validate } from './typed.js';

export const lastAppliedKey = 'kubectl.kubernetes.io/last-applied-configuration';

export function lastAppliedAnnotation(obj: KubeObject): string | undefined {
  const v = obj.metadata.annotations?.[lastAppliedKey];
  return v === undefined || v === '' ? undefined : v;
}

/** The fields the annotation names whose live value still equals the annotation's. */
export function allowedConflicts(ctx: KindContext, live: KubeObject): FieldSet | undefined {
  const text = lastAppliedAnnotation(live);
  if (text === undefined) return undefined;
  let last: JsonValue;
  try {
    last = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  if (!isJsonObject(last) || last['apiVersion'] !== ctx.apiVersion) return undefined;
  if (validate(ctx.root, last).length > 0) return undefined;
  const c = compare(ctx.root, last, withoutManagedFields(live));
  return toFieldSet(ctx.root, last)
    .difference(c.modified)
    .difference(c.added)
    .difference(c.removed);
}

/** Go's json.Marshal of an unstructured map: keys sorted, <, > and & escaped. */
export function goJson(v: JsonValue): string {
  const text = (x: JsonValue): string => {
    if (Array.isArray(x)) return `[${x.map(text).join(',')}]`;
    if (isJsonObject(x))
      return `{${Object.keys(x)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${text(x[k] ?? null)}`)
        .join(',')}}`;
    return JSON.stringify(x);
  };
  return text(v).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Sets the annotation to the applied configuration, without the annotation itself. */
export function syncLastApplied(obj: KubeObject, config: JsonObject): KubeObject {
  const meta = isJsonObject(config['metadata']) ? config['metadata'] : {};
  const annotations = isJsonObject(meta['annotations']) ? { ...meta['annotations'] } : undefined;
  if (annotations) delete annotations[lastAppliedKey];
  const applied: JsonObject = { ...config, metadata: { ...meta } };
  if (annotations && isJsonObject(applied['metadata'])) {
    if (Object.keys(annotations).length > 0) applied['metadata']['annotations'] = annotations;
    else applied['metadata']['annotations'] = {};
  }
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      annotations: { ...obj.metadata.annotations, [lastAppliedKey]: goJson(applied) },
    },
  };
}
