// PATCH in the four media types kubectl and client-node send (handlers/patch.go). JSON, merge
// and strategic patches are Update operations: the patch body is checked for duplicate fields,
// the patched object for unknown ones (Strict: 422, Warn: warnings; they are dropped either way),
// and the writer is recorded in managedFields. Apply patches go to apply.ts.

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ApiError,
  badRequest,
  methodNotAllowed,
  notFound,
  unsupportedMediaType,
} from '../../apimachinery/errors.js';
import { scanJson } from '../../apimachinery/json-scan.js';
import { dryRunOf, mediaType, parseJsonBody, readBody, sendJson } from '../http-util.js';
import { applyJsonPatch, JsonPatchError } from '../../apimachinery/json-patch.js';
import { mergePatch } from '../../apimachinery/merge-patch.js';
import { withoutManagedFields } from '../../fieldmanager/field-manager.js';
import { goJson } from '../../fieldmanager/last-applied.js';
import type { Registry } from '../../registry/registry.js';
import { fromView, storageOf, toView } from '../../registry/event-views.js';
import { groupVersion } from '../../registry/resources.js';
import type { ResourceTarget } from '../routes.js';
import { rootNode } from '../../schema/index.js';
import { pruneUnknown, strictDecode } from '../../schema/strict-decoding.js';
import { atomicList, deduced, str, struct } from '../../schema/types.js';
import { strategicMerge, StrategicMergeError } from '../../apimachinery/strategic-merge.js';
import type { JsonObject, JsonValue, KubeObject } from '../../apimachinery/types.js';
import { isJsonObject } from '../../apimachinery/types.js';
import { handleApply } from './apply.js';
import { goValue } from './go-format.js';
import { managerName, Warnings, writeQuery } from './write-options.js';
import type { FieldValidation } from './write-options.js';
import { objectFromBody, subresourceOf } from './write.js';

const jsonPatch = 'application/json-patch+json';
const merge = 'application/merge-patch+json';
const strategic = 'application/strategic-merge-patch+json';
const apply = 'application/apply-patch+yaml';

/** handlers.jsonPatchOp, what a JSON patch is strictly decoded into. */
const jsonPatchOps = atomicList(
  struct('jsonPatchOp', { op: str, path: str, from: str, value: deduced }),
);

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

/** The strict errors of the patch document itself: duplicate fields, unknown JSON patch keys. */
function patchBodyErrors(type: string, text: string): string[] {
  const raw = scanJson(text);
  if (type !== jsonPatch) return strictDecode(raw, undefined).errors;
  if (raw.t !== 'array')
    throw badRequest(
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    );
  return strictDecode(raw, jsonPatchOps).errors.map((e) => `json patch ${e}`);
}

function applyPatch(type: string, current: KubeObject, text: string, kind: string): JsonValue {
  const name = current.metadata.name ?? '';
  try {
    if (type === jsonPatch)
      return applyJsonPatch(current as unknown as JsonValue, parseJsonBody(text));
    const patch = parseJsonBody(text);
    if (!isJsonObject(patch)) throw badRequest('the patch must be a JSON object');
    if (type === merge) return mergePatch(current as unknown as JsonValue, patch);
    return strategicMerge(current as unknown as JsonValue, patch, current.apiVersion, kind);
  } catch (error) {
    if (error instanceof JsonPatchError || error instanceof StrategicMergeError)
      throw invalidPatch(kind, name, error.message);
    throw error;
  }
}

/** The 422 for Strict: ` "" is invalid: patch: Invalid value: "<patched>": strict decoding error: …`. */
function strictInvalid(type: string, text: string, patched: JsonValue, errors: string[]): ApiError {
  // JSON and merge patches quote the patched JSON; strategic ones print the patch as Go's %+v.
  const shown = type === strategic ? goValue(parseJsonBody(text)) : goJson(patched);
  const message = `Invalid value: ${JSON.stringify(shown)}: strict decoding error: ${errors.join(', ')}`;
  return new ApiError(422, 'Invalid', ` "" is invalid: patch: ${message}`, {
    causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
  });
}

function strictCheck(
  validation: FieldValidation,
  errors: string[],
  warnings: Warnings,
  fail: () => ApiError,
): void {
  if (errors.length === 0 || validation === 'Ignore') return;
  if (validation === 'Strict') throw fail();
  warnings.addAll(errors);
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
  const text = await readBody(req);
  const options = writeQuery(query, 'PatchOptions', type === apply);
  const dryRun = dryRunOf(query);
  const warnings = new Warnings();
  if (type === apply) {
    handleApply(registry, req, res, t, { text, options, dryRun, subresource, warnings });
    return;
  }

  const stored = registry.store.get(def, t.namespace, t.name);
  // events.k8s.io Events are patched in their own shape, then stored as core Events.
  const current = stored && toView(t.def, stored);
  if (!current) throw notFound({ resource: def.plural, group: t.def.group, name: t.name });
  parseJsonBody(text);
  const bodyErrors = options.validation === 'Ignore' ? [] : patchBodyErrors(type, text);
  // The current object's managedFields take no part unless the patch names them.
  const base = text.includes('managedFields')
    ? current
    : (withoutManagedFields(current) as unknown as KubeObject);
  const patched = applyPatch(type, base, text, t.def.kind);
  if (!isJsonObject(patched))
    throw invalidPatch(t.def.kind, t.name, 'the patched document is not an object');
  const decoded = pruneUnknown(patched, rootNode(groupVersion(t.def), t.def.kind));
  const errors = [...bodyErrors, ...decoded.errors];
  strictCheck(options.validation, errors, warnings, () =>
    strictInvalid(type, text, patched, errors),
  );
  const result = fromView(t.def, objectFromBody(decoded.value, t));
  // A patch that carries metadata.resourceVersion is a precondition (409 Conflict), as in the
  // apiserver.
  const rv = result.metadata.resourceVersion;
  const manager = managerName(options.fieldManager, req);
  const updated = registry.update(def, result, rv, {
    dryRun,
    subresource,
    manager,
    view: t.def,
  });
  const body = toView(t.def, updated) as unknown as JsonObject;
  sendJson(res, 200, body, 'application/json', warnings.headers());
}
