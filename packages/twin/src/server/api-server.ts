// The twin's Kubernetes API server on node:http: version and health, discovery, OpenAPI, the
// resource endpoints (with pods/log and WebSocket pods/exec), API faults, and the /twin/ admin prefix.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { HostFaultHooks } from './admin/admin.js';
import { handleAdmin } from './admin/admin.js';
import { handleAccessReview, isAccessReview } from './authorization/access-reviews.js';
import type { ExecProvider } from './streams/exec.js';
import { defaultExecProvider, parseExecParams } from './streams/exec.js';
import type { ApiFault } from './admin/faults.js';
import { FaultInjector } from './admin/faults.js';
import type { LogsProvider } from './streams/logs.js';
import type { KubeletView } from './streams/kubelet.js';
import { defaultLogsProvider, handleLogs } from './streams/logs.js';
import type { OpenStream } from './streams/open-streams.js';
import { OpenStreams } from './streams/open-streams.js';
import { requestInfo } from './request-info.js';
import { RequestStats } from './admin/stats.js';
import { createUpgradeHandler } from './streams/upgrade.js';
import { ApiError, badRequest, methodNotAllowed, pageNotFound } from '../apimachinery/errors.js';
import { dryRunOf, sendError, sendJson } from './http-util.js';
import { serveNonResource } from './non-resource.js';
import { parseKubeVersion } from '../node/versions.js';
import { handlePatch } from './resources/patch.js';
import { handleEviction } from './resources/eviction.js';
import { handleGet } from './resources/read.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceTarget } from './routes.js';
import { route } from './routes.js';
import type { JsonObject } from '../apimachinery/types.js';
import { handleCreate, handleDelete, handleUpdate } from './resources/write.js';

export interface ApiServerOptions extends HostFaultHooks {
  registry: Registry;
  /** Served at /version, e.g. v1.33.4 (see docs/twin.md for what kubectl's dispatcher does with it). */
  kubernetesVersion: string;
  /** The scenario header, served at GET /twin/scenario. */
  scenarioHeader: JsonObject;
  /** Runs `kubectl exec` commands; the default answers exit 127, `<cmd>: command not found`. */
  exec?: ExecProvider | undefined;
  /** How long an exec provider may run before the session ends with a Failure status (60). */
  execTimeoutSeconds?: number | undefined;
  /** Container logs; the default has none. */
  logs?: LogsProvider | undefined;
  /** The nodes' kubelets (up, running containers); without it they all answer. */
  kubelet?: KubeletView | undefined;
  /** The API faults in force at start: the scenario's spec.faults. */
  faults?: readonly ApiFault[] | undefined;
  /** Seeds the fault PRNG (startTwin passes the scenario name); 'twin' by default. */
  faultSeed?: string | number | undefined;
}

export interface ApiServer {
  server: Server;
  /** The live fault list, also reachable at /twin/faults. */
  faults: FaultInjector;
  /** Request counters, also at /twin/stats. */
  stats: RequestStats;
  /** Ends open watches, log follows and exec sessions, so closing the server does not wait. */
  stopWatches(): void;
}

const notAllowed = (): ApiError =>
  methodNotAllowed('the server does not allow this method on the requested resource');

export function createApiServer(options: ApiServerOptions): ApiServer {
  const { registry } = options;
  const { store } = registry;
  const faults = new FaultInjector(options.faults ?? [], options.faultSeed ?? 'twin');
  const stats = new RequestStats();
  const dropExpiredWatches = (open: readonly OpenStream[]): void => {
    const now = Date.now();
    for (const s of open) {
      if (s.kind !== 'watch') continue;
      const lifetime = faults.watchLifetimeMs(s.resource);
      if (lifetime === undefined || now - s.openedAt < lifetime) continue;
      faults.countWatchDrop();
      streams.drop(s);
    }
  };
  const streams = new OpenStreams(dropExpiredWatches);
  const logs = options.logs ?? defaultLogsProvider;
  const served = parseKubeVersion(options.kubernetesVersion);

  async function serveResource(
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams,
    target: ResourceTarget,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    const info = requestInfo(method, target, query);
    stats.record(info);
    const written = stats.recordWrite({
      ...info,
      ...(target.namespace === undefined ? {} : { namespace: target.namespace }),
      ...(target.name === undefined ? {} : { name: target.name }),
      dryRun: dryRunOf(query),
    });
    if (written !== undefined) res.once('finish', () => (written.code = res.statusCode));
    const decision = faults.decide(info, { group: target.def.group, name: target.name });
    if (decision.latencyMs > 0) await new Promise((done) => setTimeout(done, decision.latencyMs));
    // A reset fault: the connection drops before any answer, as a broken link or a load balancer
    // that gives up does; the request did nothing.
    if (decision.reset) {
      req.socket.destroy();
      return;
    }
    if (decision.response) {
      const { code, body, headers } = decision.response;
      return sendJson(res, code, body, 'application/json', headers);
    }
    if (info.resource === 'pods/log') {
      if (method !== 'GET') throw notAllowed();
      const track = (stop: () => void) => streams.add('log', info.resource, stop);
      return handleLogs({ store, logs, track, kubelet: options.kubelet }, res, query, target);
    }
    if (info.resource === 'pods/eviction') {
      if (method !== 'POST') throw notAllowed();
      return handleEviction(registry, req, res, query, target, written);
    }
    if (info.resource === 'pods/exec') {
      if (method !== 'GET' && method !== 'POST') throw notAllowed();
      parseExecParams(store, target, query);
      // Reached without an Upgrade header: the apiserver's answer to a plain request.
      throw badRequest('Upgrade request required');
    }
    if (isAccessReview(target)) return handleAccessReview(req, res, query, target);
    switch (method) {
      case 'GET': {
        const trackWatch = (stop: () => void) => streams.add('watch', info.resource, stop);
        return handleGet({ store, served, trackWatch }, req, res, query, target);
      }
      case 'POST':
        return handleCreate(registry, req, res, query, target);
      case 'PUT':
        return handleUpdate(registry, req, res, query, target);
      case 'PATCH':
        return handlePatch(registry, req, res, query, target);
      case 'DELETE':
        return handleDelete(registry, req, res, query, target, served, written);
      default:
        throw notAllowed();
    }
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://twin.invalid');
    const r = route(url.pathname);
    switch (r.kind) {
      case 'resource':
        return serveResource(req, res, url.searchParams, r.target);
      case 'admin':
        return handleAdmin({ ...options, faults, stats }, req, res, r.path, url.searchParams);
      case 'not-found':
        stats.recordNonResource();
        throw pageNotFound();
      default:
        stats.recordNonResource();
        return serveNonResource(req, res, r, options.kubernetesVersion);
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
  server.on('connection', () => stats.recordConnection());
  server.on(
    'upgrade',
    createUpgradeHandler({
      store,
      kubelet: options.kubelet,
      faults,
      stats,
      streams,
      exec: options.exec ?? defaultExecProvider,
      execTimeoutMs: (options.execTimeoutSeconds ?? 60) * 1000,
    }),
  );
  return { server, faults, stats, stopWatches: () => streams.stopAll() };
}
