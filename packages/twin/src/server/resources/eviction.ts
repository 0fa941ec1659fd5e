// POST pods/<name>/eviction: the body is a policy/v1 (or v1beta1) Eviction in JSON, YAML or
// client-go's protobuf; the create handler's checks (kind, namespace) come first, then
// EvictionREST.Create (registry/policy/eviction.ts). Success is 201 with a Status.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest } from '../../apimachinery/errors.js';
import type { JsonObject } from '../../apimachinery/types.js';
import { asRecord, asString } from '../../apimachinery/types.js';
import { evictPod } from '../../registry/policy/eviction.js';
import type { Registry } from '../../registry/registry.js';
import { dryRunOf, readBodyBytes, sendJson } from '../http-util.js';
import type { ResourceTarget } from '../routes.js';
import { decodeRequestBody } from './body.js';
import { Warnings, writeQuery } from './write-options.js';

/** EvictionREST.AcceptsGroupVersion: policy/v1 and policy/v1beta1. */
const accepted = new Set(['policy/v1', 'policy/v1beta1']);

export async function handleEviction(
  registry: Registry,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  t: ResourceTarget,
  written?: { dryRun: boolean },
): Promise<void> {
  const queryDryRun = dryRunOf(query);
  // A create handler whose kind is the subresource's (Eviction): fieldValidation applies to it.
  const options = writeQuery(query, 'CreateOptions');
  const warnings = new Warnings();
  const eviction = { ...t, def: { ...t.def, group: 'policy', version: 'v1', kind: 'Eviction' } };
  const decoded = decodeRequestBody(
    await readBodyBytes(req),
    req.headers['content-type'] ?? '',
    eviction,
    options.validation,
    warnings,
  );
  const body: JsonObject = asRecord(decoded);
  // propagateDryRun: the body's deleteOptions.dryRun counts as much as the query's.
  const bodyDryRun = asRecord(body['deleteOptions'])['dryRun'];
  if (written) written.dryRun = queryDryRun || (Array.isArray(bodyDryRun) && bodyDryRun.length > 0);
  const kind = body['kind'];
  const apiVersion = body['apiVersion'];
  if (kind !== undefined && kind !== 'Eviction') {
    throw badRequest(
      `the object provided is unrecognized (must be of type Eviction): kind ${JSON.stringify(kind)}`,
    );
  }
  if (apiVersion !== undefined && !accepted.has(asString(apiVersion))) {
    throw badRequest(
      `the API version in the data (${asString(apiVersion)}) does not match the expected API version (policy/v1)`,
    );
  }
  const metadata = asRecord(body['metadata']);
  const namespace = asString(metadata['namespace']);
  if (namespace !== '' && namespace !== t.namespace) {
    throw badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  if (asString(metadata['name']) !== t.name) {
    throw badRequest('name in URL does not match name in Eviction object');
  }
  const status = evictPod(registry, t.namespace ?? '', t.name ?? '', {
    eviction: body,
    dryRun: query.getAll('dryRun'),
  });
  sendJson(res, 201, status, 'application/json', warnings.headers());
}
