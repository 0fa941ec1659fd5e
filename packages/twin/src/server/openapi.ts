// Just enough OpenAPI v3 for kubectl's default (server-side) validation: one PATCH operation per
// kind that declares `fieldValidation`. No schemas: kubectl then builds client-side apply patches
// from its compiled-in types, which is what it does against clusters without OpenAPI.

import { createHash } from 'node:crypto';
import { groupVersions, resources } from '../registry/resources.js';
import type { JsonObject } from '../apimachinery/types.js';

function gvPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

export function openApiV3Document(
  group: string,
  version: string,
  serverVersion: string,
): JsonObject {
  const paths: JsonObject = {};
  for (const def of resources.filter((r) => r.group === group && r.version === version)) {
    const base = `/${gvPath(group, version)}${def.namespaced ? '/namespaces/{namespace}' : ''}/${def.plural}/{name}`;
    paths[base] = {
      patch: {
        description: `partially update the specified ${def.kind}`,
        operationId: `patch${def.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': {
          group: def.group,
          version: def.version,
          kind: def.kind,
        },
        parameters: [
          { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'force', in: 'query', schema: { type: 'boolean', uniqueItems: true } },
        ],
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: serverVersion },
    paths,
    components: { schemas: {} },
  };
}

function hashOf(group: string, version: string, serverVersion: string): string {
  return createHash('sha512')
    .update(JSON.stringify(openApiV3Document(group, version, serverVersion)))
    .digest('hex')
    .slice(0, 128)
    .toUpperCase();
}

export function openApiV3Root(serverVersion: string): JsonObject {
  const paths: JsonObject = {};
  for (const gv of groupVersions()) {
    const path = gvPath(gv.group, gv.version);
    paths[path] = {
      serverRelativeURL: `/openapi/v3/${path}?hash=${hashOf(gv.group, gv.version, serverVersion)}`,
    };
  }
  return { paths };
}
