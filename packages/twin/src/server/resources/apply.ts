// PATCH with application/apply-patch+yaml: server-side apply (handlers/patch.go applyPatcher).
// The configuration is decoded leniently, applied by the field manager (which rejects unknown
// fields and conflicts), and only then checked for duplicate keys as fieldValidation asks. A
// missing object is created (201); an apply that changes nothing writes nothing.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { badRequest, notFound } from '../../apimachinery/errors.js';
import type { JsonObject, JsonValue } from '../../apimachinery/types.js';
import { isJsonObject } from '../../apimachinery/types.js';
import { applyManagedFields } from '../../fieldmanager/apply.js';
import { kindContext } from '../../fieldmanager/kind-context.js';
import type { Registry } from '../../registry/registry.js';
import { groupVersion } from '../../registry/resources.js';
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
  const { def } = t;
  const name = t.name ?? '';
  const config = decodeConfig(r.text);
  const current = registry.store.get(def, t.namespace, name);
  if (!current && r.subresource) throw notFound({ resource: def.plural, group: def.group, name });
  const ctx = kindContext(groupVersion(def), def.kind, r.subresource);
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
  const obj = objectFromBody(outcome.object as unknown as JsonValue, t);
  const headers = r.warnings.headers();
  if (!current) {
    const created = registry.create(def, obj, { dryRun: r.dryRun, applied: true });
    sendJson(res, 201, created as unknown as JsonObject, 'application/json', headers);
    return;
  }
  const updated = outcome.changed
    ? registry.update(def, obj, obj.metadata.resourceVersion, {
        dryRun: r.dryRun,
        subresource: r.subresource,
        applied: true,
      })
    : current;
  sendJson(res, 200, updated as unknown as JsonObject, 'application/json', headers);
}
