// POST, PUT and DELETE on resources: body decoding, URL/body consistency checks, dryRun, and
// the apiserver's response shapes (201 on create, Status or object on delete).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import {
  badRequest,
  methodNotAllowed,
  pageNotFound,
  unsupportedMediaType,
} from '../../apimachinery/errors.js';
import {
  dryRunOf,
  mediaType,
  parseJsonBody,
  readBody,
  readBodyBytes,
  sendJson,
} from '../http-util.js';
import { decodeProtobuf, protobufMediaType } from '../../apimachinery/protobuf/decode.js';
import { parseDeleteOptions } from './delete-options.js';
import { listObjects } from './list.js';
import type { Version } from '../../node/versions.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resources.js';
import { groupVersion } from '../../registry/resources.js';
import type { ResourceTarget } from '../routes.js';
import type { JsonObject, JsonValue, KubeObject } from '../../apimachinery/types.js';
import { asRecord, isJsonObject } from '../../apimachinery/types.js';

/** Resources whose DELETE returns the object; the rest answer with a Success Status. */
const returnsDeletedObject = new Set(['pods', 'services', 'prometheusrules']);

export function decodeBody(text: string, contentType: string): JsonValue {
  const type = mediaType(contentType);
  if (type === 'application/json' || type === '') return parseJsonBody(text);
  if (type === 'application/yaml' || type === 'application/apply-patch+yaml') {
    try {
      return parseYaml(text) as JsonValue;
    } catch (error) {
      throw badRequest(`error decoding YAML: ${(error as Error).message}`);
    }
  }
  throw unsupportedMediaType(type, ['application/json', 'application/yaml']);
}

/** A JSON, YAML or protobuf body as an object (protobuf only for the kinds the twin decodes). */
export function decodeObjectBody(body: Buffer, contentType: string): JsonObject {
  if (mediaType(contentType) === protobufMediaType) {
    const decoded = decodeProtobuf(body);
    if (decoded) return decoded;
    throw unsupportedMediaType(protobufMediaType, ['application/json', 'application/yaml']);
  }
  return asRecord(decodeBody(body.toString('utf8'), contentType));
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Checks a request body against the URL and fills apiVersion, kind and namespace from it. */
export function objectFromBody(
  body: JsonValue,
  t: ResourceTarget,
  requireTypeMeta = false,
): KubeObject {
  const { def } = t;
  if (!isJsonObject(body)) throw badRequest('the request body must be a JSON object');
  const gv = groupVersion(def);
  if (requireTypeMeta && (body['apiVersion'] === undefined || body['kind'] === undefined)) {
    throw badRequest('invalid object: apiVersion and kind must be set');
  }
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
  return { ...body, apiVersion: gv, kind: def.kind, metadata };
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
  const body = decodeObjectBody(await readBodyBytes(req), req.headers['content-type'] ?? '');
  const obj = objectFromBody(body, t);
  sendJson(res, 201, registry.create(t.def, obj, { dryRun }) as unknown as JsonObject);
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
  const obj = objectFromBody(decodeBody(await readBody(req), req.headers['content-type'] ?? ''), t);
  const rv = obj.metadata.resourceVersion;
  const updated = registry.update(t.def, obj, rv === '' ? undefined : rv, { dryRun, subresource });
  sendJson(res, 200, updated as unknown as JsonObject);
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

/** DELETE of one object, or of a collection (`served`: the Kubernetes version, for field selectors). */
export async function handleDelete(
  registry: Registry,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  t: ResourceTarget,
  served: Version | undefined,
): Promise<void> {
  if (t.subresource !== undefined)
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  const { def } = t;
  const raw = await readBodyBytes(req);
  const body =
    raw.length > 0 ? decodeObjectBody(raw, req.headers['content-type'] ?? '') : undefined;
  const options = parseDeleteOptions(body, query);
  if (t.name === undefined) {
    const unpaged = new URLSearchParams(query);
    unpaged.delete('limit');
    unpaged.delete('continue');
    const items = listObjects(registry.store, def, t.namespace, unpaged, served).items;
    const deleted = items.map((item) =>
      registry.delete(def, item.metadata.namespace, item.metadata.name ?? '', {
        ...options,
        expectedRv: undefined,
        expectedUid: undefined,
      }),
    );
    sendJson(res, 200, {
      kind: `${def.kind}List`,
      apiVersion: groupVersion(def),
      metadata: { resourceVersion: String(registry.store.resourceVersion) },
      items: deleted as unknown as JsonObject[],
    });
    return;
  }
  const result = registry.delete(def, t.namespace, t.name, options);
  const stillThere = registry.store.get(def, t.namespace, t.name) !== undefined;
  const reply =
    stillThere || returnsDeletedObject.has(def.plural)
      ? (result as unknown as JsonObject)
      : successStatus(def, result);
  // handlers/delete.go: 202 only when the object stays and orphanDependents was false.
  const code = stillThere && options.orphanDependents === false ? 202 : 200;
  sendJson(res, code, reply);
}
