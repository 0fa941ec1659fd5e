// The twin's Kubernetes API server on node:http: version and health, discovery, OpenAPI, the
// resource endpoints, and the /twin/ admin prefix. Every failure becomes a Status body.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import {
  aggregatedDiscovery,
  legacyApiVersions,
  legacyGroup,
  legacyGroupList,
  legacyResourceList,
} from './discovery.js';
import { ApiError, methodNotAllowed, pageNotFound } from './errors.js';
import { aggregatedDiscoveryType, baseHeaders, sendError, sendJson } from './http-util.js';
import { openApiV3Document, openApiV3Root } from './openapi.js';
import { handlePatch } from './patch-handler.js';
import { handleGet } from './read-handlers.js';
import type { Registry } from './registry.js';
import { route } from './routes.js';
import type { JsonObject } from './types.js';
import { handleCreate, handleDelete, handleUpdate } from './write-handlers.js';

export interface ApiServerOptions {
  registry: Registry;
  /** Served at /version, e.g. v1.33.4 (see docs/twin.md for what kubectl's dispatcher does with it). */
  kubernetesVersion: string;
  /** The scenario header, served at GET /twin/scenario. */
  scenarioHeader: JsonObject;
}

export interface ApiServer {
  server: Server;
  /** Ends open watches, so that closing the server does not wait for them. */
  stopWatches(): void;
}

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

export function createApiServer(options: ApiServerOptions): ApiServer {
  const { registry } = options;
  const watches = new Set<() => void>();

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://twin.invalid');
    const query = url.searchParams;
    const method = req.method ?? 'GET';
    const r = route(url.pathname);
    const readOnly = (): void => {
      if (method !== 'GET' && method !== 'HEAD')
        throw methodNotAllowed(`the server does not allow this method on the requested resource`);
    };
    const accept = req.headers.accept;
    switch (r.kind) {
      case 'version':
        readOnly();
        return sendJson(res, 200, versionInfo(options.kubernetesVersion));
      case 'health':
        readOnly();
        res.writeHead(200, { ...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('ok');
        return;
      case 'core-groups':
      case 'named-groups': {
        readOnly();
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
        readOnly();
        return sendJson(res, 200, legacyGroup(r.group));
      case 'group-version':
        readOnly();
        return sendJson(res, 200, legacyResourceList(r.group, r.version));
      case 'openapi-v3-root':
        readOnly();
        return sendJson(res, 200, openApiV3Root(options.kubernetesVersion));
      case 'openapi-v3':
        readOnly();
        return sendJson(res, 200, openApiV3Document(r.group, r.version, options.kubernetesVersion));
      case 'admin':
        if (r.path === '/scenario' && method === 'GET')
          return sendJson(res, 200, options.scenarioHeader);
        throw pageNotFound();
      case 'not-found':
        throw pageNotFound();
      case 'resource': {
        const ctx = { store: registry.store, watches };
        switch (method) {
          case 'GET':
            return handleGet(ctx, req, res, query, r.target);
          case 'POST':
            return handleCreate(registry, req, res, query, r.target);
          case 'PUT':
            return handleUpdate(registry, req, res, query, r.target);
          case 'PATCH':
            return handlePatch(registry, req, res, query, r.target);
          case 'DELETE':
            return handleDelete(registry, req, res, query, r.target);
          default:
            throw methodNotAllowed(
              `the server does not allow this method on the requested resource`,
            );
        }
      }
    }
  }

  const server = createServer((req, res) => {
    dispatch(req, res).catch((error: unknown) => {
      if (error instanceof ApiError) {
        sendError(res, error);
      } else {
        const message = error instanceof Error ? error.message : String(error);
        sendError(res, new ApiError(500, 'InternalError', `Internal error occurred: ${message}`));
      }
    });
  });
  return {
    server,
    stopWatches: () => {
      for (const stop of [...watches]) stop();
    },
  };
}
