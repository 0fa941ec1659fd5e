// PATCH in the four media types kubectl and client-node send. Server-side apply is simplified:
// the applied configuration is merged into the live object (strategic rules for built-in kinds),
// creating it when absent; field ownership, managedFields and apply conflicts are not modelled.

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ApiError,
  badRequest,
  methodNotAllowed,
  notFound,
  unsupportedMediaType,
} from '../../apimachinery/errors.js';
import { dryRunOf, mediaType, readBody, sendJson } from '../http-util.js';
import { applyJsonPatch, JsonPatchError } from '../../apimachinery/json-patch.js';
import { mergePatch } from '../../apimachinery/merge-patch.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceTarget } from '../routes.js';
import { strategicMerge, StrategicMergeError } from '../../apimachinery/strategic-merge.js';
import type { JsonObject, JsonValue, KubeObject } from '../../apimachinery/types.js';
import { isJsonObject, omit } from '../../apimachinery/types.js';
import { decodeBody, objectFromBody, subresourceOf } from './write.js';
import { fromView, storageOf, toView } from '../../registry/event-views.js';

const jsonPatch = 'application/json-patch+json';
const merge = 'application/merge-patch+json';
const strategic = 'application/strategic-merge-patch+json';
const apply = 'application/apply-patch+yaml';

function acceptedTypes(strategicAllowed: boolean): string[] {
  return strategicAllowed ? [jsonPatch, merge, strategic, apply] : [jsonPatch, merge, apply];
}

function invalidPatch(kind: string, name: string, message: string): ApiError {
  return new ApiError(
    422,
    'Invalid',
    `${kind} "${name}" is invalid: patch: Invalid value: "...": ${message}`,
    {
      name,
      kind,
      causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
    },
  );
}

function applyPatch(type: string, current: KubeObject, text: string, kind: string): JsonValue {
  const name = current.metadata.name ?? '';
  try {
    if (type === jsonPatch)
      return applyJsonPatch(current as unknown as JsonValue, decodeBody(text, 'application/json'));
    const patch = decodeBody(text, 'application/json');
    if (!isJsonObject(patch)) throw badRequest('the patch must be a JSON object');
    if (type === merge) return mergePatch(current as unknown as JsonValue, patch);
    return strategicMerge(current as unknown as JsonValue, patch, kind);
  } catch (error) {
    if (error instanceof JsonPatchError || error instanceof StrategicMergeError)
      throw invalidPatch(kind, name, error.message);
    throw error;
  }
}

export async function handlePatch(
  registry: Registry,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  t: ResourceTarget,
): Promise<void> {
  const def = storageOf(t.def);
  if (t.name === undefined)
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  const subresource = subresourceOf(t);
  const type = mediaType(req.headers['content-type']);
  if (!acceptedTypes(def.strategicMerge).includes(type))
    throw unsupportedMediaType(type, acceptedTypes(def.strategicMerge));
  const dryRun = dryRunOf(query);
  const text = await readBody(req);
  const stored = registry.store.get(def, t.namespace, t.name);
  // events.k8s.io Events are patched in their own shape, then stored as core Events.
  const current = stored && toView(t.def, stored);

  if (type === apply) {
    const applied = objectFromBody(decodeBody(text, apply), t, true);
    if (!current) {
      if (subresource) throw notFound({ resource: def.plural, group: t.def.group, name: t.name });
      const created = registry.create(def, fromView(t.def, applied), { dryRun });
      sendJson(res, 201, toView(t.def, created) as unknown as JsonObject);
      return;
    }
    const body = { ...applied, metadata: omit(applied.metadata, 'resourceVersion') } as JsonValue;
    const merged = def.strategicMerge
      ? strategicMerge(current as unknown as JsonValue, body, def.kind)
      : mergePatch(current as unknown as JsonValue, body);
    // The applied configuration's resourceVersion, if any, is a precondition (409 Conflict);
    // otherwise the patch applies to the current object, even where a PUT must name the RV (Leases).
    const expected = applied.metadata.resourceVersion ?? current.metadata.resourceVersion;
    const next = fromView(t.def, merged as unknown as KubeObject);
    const updated = registry.update(def, next, expected, { dryRun, subresource });
    sendJson(res, 200, toView(t.def, updated) as unknown as JsonObject);
    return;
  }

  if (!current) throw notFound({ resource: def.plural, group: t.def.group, name: t.name });
  const patched = applyPatch(type, current, text, def.kind);
  if (!isJsonObject(patched))
    throw invalidPatch(def.kind, t.name, 'the patched document is not an object');
  const result = fromView(t.def, objectFromBody(patched, t));
  // A patch that carries metadata.resourceVersion is a precondition (409 Conflict), as in the
  // apiserver.
  const rv = result.metadata.resourceVersion;
  const updated = registry.update(def, result, rv, { dryRun, subresource });
  sendJson(res, 200, toView(t.def, updated) as unknown as JsonObject);
}
