// The non-resource endpoints: /version, health, discovery (aggregated and legacy) and OpenAPI v3.
// API faults never reach these (TWIN.md): a twin that broke discovery would only test kubectl.

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  aggregatedDiscovery,
  legacyApiVersions,
  legacyGroup,
  legacyGroupList,
  legacyResourceList,
} from './discovery.js';
import { methodNotAllowed } from '../apimachinery/errors.js';
import { aggregatedDiscoveryType, baseHeaders, sendJson } from './http-util.js';
import { openApiV3Document, openApiV3Root } from './openapi.js';
import type { Route } from './routes.js';
import type { JsonObject } from '../apimachinery/types.js';

export type NonResourceRoute = Exclude<Route, { kind: 'resource' | 'admin' | 'not-found' }>;

export function versionInfo(gitVersion: string): JsonObject {
  const m = /^v?(\d+)\.(\d+)/.exec(gitVersion);
  const major = m?.[1] ?? '1';
  const minor = m?.[2] ?? '0';
  return {
    major,
    minor,
    emulationMajor: major,
    emulationMinor: minor,
    minCompatibilityMajor: major,
    minCompatibilityMinor: String(Math.max(0, Number(minor) - 1)),
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.24.5',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function serveNonResource(
  req: IncomingMessage,
  res: ServerResponse,
  r: NonResourceRoute,
  kubernetesVersion: string,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw methodNotAllowed(`the server does not allow this method on the requested resource`);
  const accept = req.headers.accept;
  switch (r.kind) {
    case 'version':
      return sendJson(res, 200, versionInfo(kubernetesVersion));
    case 'health':
      res.writeHead(200, { ...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return;
    case 'core-groups':
    case 'named-groups': {
      const aggregated = aggregatedDiscoveryType(accept);
      const core = r.kind === 'core-groups';
      if (aggregated) {
        const apiVersion = aggregated.includes('v=v2beta1')
          ? 'apidiscovery.k8s.io/v2beta1'
          : 'apidiscovery.k8s.io/v2';
        return sendJson(res, 200, aggregatedDiscovery(core, apiVersion), aggregated);
      }
      return sendJson(
        res,
        200,
        core ? legacyApiVersions(req.headers.host ?? '127.0.0.1') : legacyGroupList(),
      );
    }
    case 'group':
      return sendJson(res, 200, legacyGroup(r.group));
    case 'group-version':
      return sendJson(res, 200, legacyResourceList(r.group, r.version));
    case 'openapi-v3-root':
      return sendJson(res, 200, openApiV3Root(kubernetesVersion));
    case 'openapi-v3':
      return sendJson(res, 200, openApiV3Document(r.group, r.version, kubernetesVersion));
  }
}
