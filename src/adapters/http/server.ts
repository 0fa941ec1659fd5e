/**
 * The one HTTP server of a process: liveness, readiness and metrics next to Slack's
 * `/slack/events` (Bolt's request listener, mounted as-is so signature checks stay Bolt's).
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Logger } from '../../log.js';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, string>;
}

export interface HttpServerOptions {
  /** Bolt's request listener; absent in worker-only and Socket Mode processes. */
  slackListener?: RequestListener;
  readiness(): Promise<ReadinessReport>;
  metrics(): Promise<{ contentType: string; body: string }>;
  logger: Logger;
}

/** Where Slack sends commands, interactions and events (Bolt's default; the manifest says so). */
export const SLACK_EVENTS_PATH = '/slack/events';

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}

async function route(
  options: HttpServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method === 'GET' && path === '/healthz') {
    send(res, 200, 'application/json', '{"status":"ok"}');
    return;
  }
  if (req.method === 'GET' && path === '/readyz') {
    const report = await options.readiness();
    send(res, report.ready ? 200 : 503, 'application/json', JSON.stringify(report));
    return;
  }
  if (req.method === 'GET' && path === '/metrics') {
    const { contentType, body } = await options.metrics();
    send(res, 200, contentType, body);
    return;
  }
  if (path === SLACK_EVENTS_PATH && options.slackListener !== undefined) {
    options.slackListener(req, res);
    return;
  }
  send(res, 404, 'application/json', '{"error":"not found"}');
}

export function createHttpServer(options: HttpServerOptions): Server {
  const server = createServer((req, res) => {
    route(options, req, res).catch((error: unknown) => {
      options.logger.error({ err: error, path: req.url?.split('?')[0] }, 'http handler failed');
      if (!res.headersSent) send(res, 500, 'application/json', '{"error":"internal"}');
      else res.end();
    });
  });
  // Slack and probes use short requests; do not let idle sockets hold shutdown open.
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Listens and resolves to the bound port (useful with port 0). */
export async function listen(server: Server, port: number, host?: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : port;
}

/** Stops accepting connections and waits for open requests, closing idle sockets at once. */
export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
