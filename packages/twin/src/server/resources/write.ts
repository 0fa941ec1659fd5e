// POST, PUT and DELETE on resources: body decoding (strict as fieldValidation asks, body.ts),
// URL/body consistency checks, dryRun, the writer the registry records in managedFields, and the
// apiserver's response shapes (201 on create, Status or object on delete).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotAllowed, pageNotFound } from '../../apimachinery/errors.js';
import { dryRunOf, readBodyBytes, sendJson } from '../http-util.js';
import { decodeDeleteBody, decodeRequestBody } from './body.js';
import { parseDeleteOptions } from './delete-options.js';
import { listObjects } from './list.js';
import { decodeTypedFields } from './typed-decode.js';
import { fromView, storageOf, toView } from '../../registry/event-views.js';
import type { Version } from '../../node/versions.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resources.js';
import { groupVersion } from '../../registry/resources.js';
import type { ResourceTarget } from '../routes.js';
import type { JsonObject, JsonValue, KubeObject } from '../../apimachinery/types.js';
import { asRecord, isJsonObject } from '../../apimachinery/types.js';
import { managerName, Warnings, writeQuery } from './write-options.js';

/** Resources whose DELETE returns the object; the rest answer with a Success Status. */
const returnsDeletedObject = new Set(['pods', 'services', 'prometheusrules']);

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Checks a request body against the URL and fills apiVersion, kind and namespace from it. */
export function objectFromBody(body: JsonValue, t: ResourceTarget): KubeObject {
  const { def } = t;
  if (!isJsonObject(body)) throw badRequest('the request body must be a JSON object');
  const gv = groupVersion(def);
  if (body['kind'] !== undefined && body['kind'] !== def.kind) {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${def.kind}): kind ${JSON.stringify(body['kind'])}`,
    );
  }
  if (body['apiVersion'] !== undefined && body['apiVersion'] !== gv) {
    throw badRequest(
      `the API version in the data (${text(body['apiVersion'])}) does not match the expected API version (${gv})`,
    );
  }
  const metadata = { ...asRecord(body['metadata']) } as KubeObject['metadata'];
  if (def.namespaced) {
    if (
      metadata.namespace !== undefined &&
      metadata.namespace !== '' &&
      metadata.namespace !== t.namespace
    ) {
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    if (t.namespace !== undefined) metadata.namespace = t.namespace;
  }
  if (t.name !== undefined && metadata.name !== undefined && metadata.name !== t.name) {
    throw badRequest(
      `the name of the object (${metadata.name}) does not match the name on the URL (${t.name})`,
    );
  }
  if (t.name !== undefined) metadata.name = t.name;
  const obj: KubeObject = { ...body, apiVersion: gv, kind: def.kind, metadata };
  decodeTypedFields(def, obj);
  return obj;
}

/** The subresource a write targets: `status` where the resource has one, else 404. */
export function subresourceOf(t: ResourceTarget): 'status' | undefined {
  if (t.subresource === undefined) return undefined;
  if (t.subresource === 'status' && t.def.subresources.includes('status')) return 'status';
  throw pageNotFound();
}

export async function handleCreate(
  registry: Registry,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  t: ResourceTarget,
): Promise<void> {
  if (t.subresource !== undefined) throw pageNotFound();
  if (t.name !== undefined)
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  if (t.def.namespaced && t.namespace === undefined) {
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  }
  const dryRun = dryRunOf(query);
  const options = writeQuery(query, 'CreateOptions');
  const warnings = new Warnings();
  const body = decodeRequestBody(
    await readBodyBytes(req),
    req.headers['content-type'] ?? '',
    t,
    options.validation,
    warnings,
  );
  const obj = fromView(t.def, objectFromBody(body, t));
  const manager = managerName(options.fieldManager, req);
  const created = registry.create(storageOf(t.def), obj, { dryRun, manager, view: t.def });
  const answer = toView(t.def, created) as unknown as JsonObject;
  sendJson(res, 201, answer, 'application/json', warnings.headers());
}

export async function handleUpdate(
  registry: Registry,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  t: ResourceTarget,
): Promise<void> {
  if (t.name === undefined)
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  const subresource = subresourceOf(t);
  const dryRun = dryRunOf(query);
  const options = writeQuery(query, 'UpdateOptions');
  const warnings = new Warnings();
  const body = decodeRequestBody(
    await readBodyBytes(req),
    req.headers['content-type'] ?? '',
    t,
    options.validation,
    warnings,
  );
  const obj = fromView(t.def, objectFromBody(body, t));
  const rv = obj.metadata.resourceVersion;
  const def = storageOf(t.def);
  const manager = managerName(options.fieldManager, req);
  // A PUT that creates (AllowCreateOnUpdate, e.g. Leases) answers 201, as Store.Update reports.
  const existed = registry.store.get(def, obj.metadata.namespace, obj.metadata.name ?? '');
  const updated = registry.update(def, obj, rv === '' ? undefined : rv, {
    dryRun,
    subresource,
    manager,
    view: t.def,
  });
  const answer = toView(t.def, updated) as unknown as JsonObject;
  sendJson(res, existed ? 200 : 201, answer, 'application/json', warnings.headers());
}

function successStatus(def: ResourceDef, obj: KubeObject): JsonObject {
  const details: JsonObject = {
    name: obj.metadata.name ?? '',
    kind: def.plural,
    uid: obj.metadata.uid ?? '',
  };
  if (def.group !== '') details['group'] = def.group;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

/**
 * DELETE of one object, or of a collection (`served`: the Kubernetes version, for field
 * selectors). `written` is the request's write-log entry: a body's DeleteOptions replace the
 * query (delete.go), so the entry's dry-run flag is the one the deletion obeys.
 */
export async function handleDelete(
  registry: Registry,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  t: ResourceTarget,
  served: Version | undefined,
  written?: { dryRun: boolean },
): Promise<void> {
  if (t.subresource !== undefined)
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  const def = storageOf(t.def);
  const raw = await readBodyBytes(req);
  const body =
    raw.length > 0 ? decodeDeleteBody(raw, req.headers['content-type'] ?? '') : undefined;
  const options = parseDeleteOptions(body, query);
  if (written) written.dryRun = options.dryRun === true;
  if (t.name === undefined) {
    const unpaged = new URLSearchParams(query);
    unpaged.delete('limit');
    unpaged.delete('continue');
    const items = listObjects(registry.store, t.def, t.namespace, unpaged, served).items;
    const deleted = items.map((item) =>
      registry.delete(def, item.metadata.namespace, item.metadata.name ?? '', {
        ...options,
        expectedRv: undefined,
        expectedUid: undefined,
      }),
    );
    sendJson(res, 200, {
      kind: `${t.def.kind}List`,
      apiVersion: groupVersion(t.def),
      metadata: { resourceVersion: String(registry.store.resourceVersion) },
      items: deleted.map((item) => toView(t.def, item)) as unknown as JsonObject[],
    });
    return;
  }
  const result = registry.delete(def, t.namespace, t.name, options);
  const stillThere = registry.store.get(def, t.namespace, t.name) !== undefined;
  const reply =
    stillThere || returnsDeletedObject.has(def.plural)
      ? (toView(t.def, result) as unknown as JsonObject)
      : successStatus(t.def, result);
  // handlers/delete.go: 202 only when the object stays and orphanDependents was false.
  const code = stillThere && options.orphanDependents === false ? 202 : 200;
  sendJson(res, code, reply);
}
