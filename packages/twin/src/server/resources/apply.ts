// PATCH with application/apply-patch+yaml: server-side apply (handlers/patch.go applyPatcher).
// The configuration is decoded leniently, applied by the field manager (which rejects unknown
// fields and conflicts), and only then checked for duplicate keys as fieldValidation asks. A
// missing object is created (201); an apply that changes nothing writes nothing.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { badRequest, notFound } from '../../apimachinery/errors.js';
import type { JsonObject, JsonValue, KubeObject } from '../../apimachinery/types.js';
import { isJsonObject } from '../../apimachinery/types.js';
import { applyManagedFields } from '../../fieldmanager/apply.js';
import { kindContext } from '../../fieldmanager/kind-context.js';
import type { Registry } from '../../registry/registry.js';
import { groupVersion } from '../../registry/resources.js';
import { fromView, storageOf, toView } from '../../registry/event-views.js';
import { sendJson } from '../http-util.js';
import type { ResourceTarget } from '../routes.js';
import { yamlDuplicateKeys, yamlWarnings } from './body.js';
import type { Warnings, WriteQuery } from './write-options.js';
import { objectFromBody } from './write.js';

export interface ApplyRequest {
  text: string;
  options: WriteQuery;
  dryRun: boolean;
  subresource: 'status' | undefined;
  warnings: Warnings;
}

function goKind(v: JsonValue): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string';
}

function decodeConfig(text: string): JsonObject {
  let value: JsonValue;
  try {
    value = (parseYaml(text, { uniqueKeys: false }) as JsonValue | undefined) ?? null;
  } catch (error) {
    throw badRequest(`error decoding YAML: ${(error as Error).message}`);
  }
  if (value === null) return {};
  if (!isJsonObject(value))
    throw badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goKind(value)} into Go value of type map[string]interface {}`,
    );
  return value;
}

export function handleApply(
  registry: Registry,
  _req: IncomingMessage,
  res: ServerResponse,
  t: ResourceTarget,
  r: ApplyRequest,
): void {
  const def = storageOf(t.def);
  const name = t.name ?? '';
  const config = decodeConfig(r.text);
  const stored = registry.store.get(def, t.namespace, name);
  // events.k8s.io Events are applied in their own shape (and version), then stored as core Events.
  const current = stored ? toView(t.def, stored) : undefined;
  if (!current && r.subresource) throw notFound({ resource: def.plural, group: t.def.group, name });
  const ctx = kindContext(groupVersion(t.def), t.def.kind, r.subresource);
  const outcome = applyManagedFields(
    ctx,
    current,
    config,
    r.options.fieldManager,
    r.options.force ?? false,
    registry.store.clock.timestamp(),
  );
  if (r.options.validation !== 'Ignore') {
    const duplicates = yamlDuplicateKeys(r.text);
    if (duplicates && r.options.validation === 'Strict')
      throw badRequest(`error strict decoding YAML: ${duplicates}`);
    if (duplicates) r.warnings.addAll(yamlWarnings(duplicates));
  }
  const obj = fromView(t.def, objectFromBody(outcome.object as unknown as JsonValue, t));
  const headers = r.warnings.headers();
  const answer = (o: KubeObject): JsonObject => toView(t.def, o) as unknown as JsonObject;
  if (!stored) {
    const created = registry.create(def, obj, { dryRun: r.dryRun, applied: true });
    sendJson(res, 201, answer(created), 'application/json', headers);
    return;
  }
  // The configuration's resourceVersion, if any, is a precondition (409 Conflict); otherwise the
  // apply is to the current object, even where a PUT must name the RV (Leases).
  const expected = obj.metadata.resourceVersion ?? stored.metadata.resourceVersion;
  const updated = outcome.changed
    ? registry.update(def, obj, expected, {
        dryRun: r.dryRun,
        subresource: r.subresource,
        applied: true,
      })
    : stored;
  sendJson(res, 200, answer(updated), 'application/json', headers);
}
