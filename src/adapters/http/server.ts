/**
 * The one HTTP server of a process: liveness, readiness and metrics next to Slack's
 * `/slack/events` (Bolt's request listener behind the Slack edge guard, slack-guard.ts). The
 * server bounds what a client can hold: header size, the time to send headers and the whole
 * request, and idle sockets, all within Slack's 3-second budget. Every request is logged as
 * method, path, status and byte counts only: never headers (Authorization, Cookie, Slack's
 * signature) and never bodies.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../../log.js';

/** What one client may take of the server. Slack gives up on a request after 3 s. */
export const HTTP_LIMITS = {
  /** Slack's headers are well under 2 KiB; Node's default allows 16. */
  maxHeaderBytes: 8 * 1024,
  maxHeadersCount: 64,
  /** Headers, then the whole request, must arrive within Slack's budget. */
  headersTimeoutMs: 3_000,
  requestTimeoutMs: 3_000,
  /** How often Node enforces the two above (its default, 30 s, would let them slip). */
  checkIntervalMs: 500,
  /** A socket with no traffic for this long is closed. */
  idleTimeoutMs: 5_000,
  keepAliveTimeoutMs: 5_000,
} as const;

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

/** Byte counters of each socket at the end of its previous request (keep-alive reuses them). */
const counted = new WeakMap<Socket, { read: number; written: number }>();

const MAX_LOGGED_PATH = 200;

function loggedPath(req: IncomingMessage): string {
  // The query string may carry anything a caller put there: it is not logged.
  return (req.url ?? '/').split('?')[0]?.slice(0, MAX_LOGGED_PATH) ?? '/';
}

/** One line per request, when it ends: method, path, status, bytes in and out, duration. */
function logRequest(req: IncomingMessage, res: ServerResponse, logger: Logger): void {
  const started = performance.now();
  res.once('close', () => {
    const socket = req.socket;
    const before = counted.get(socket) ?? { read: 0, written: 0 };
    const now = { read: socket.bytesRead, written: socket.bytesWritten };
    counted.set(socket, now);
    const path = loggedPath(req);
    const line = {
      method: req.method,
      path,
      status: res.statusCode,
      bytesIn: now.read - before.read,
      bytesOut: now.written - before.written,
      ms: Math.round(performance.now() - started),
    };
    if (path !== SLACK_EVENTS_PATH) logger.debug(line, 'http request');
    else if (res.statusCode >= 400) logger.warn(line, 'http request');
    else logger.info(line, 'http request');
  });
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
  const logger = options.logger.child({ component: 'http' });
  // The request line is numbers, a method and a path without its query, never a secret-bearing
  // key: redaction by path (a copy of the line and 33 paths walked, ~60 µs) would only slow the
  // ack of the next request in a burst. Strings are still scrubbed (log.ts), and every other
  // line of this component is redacted as usual.
  const requestLogger = logger.child({}, { redact: [] });
  const server = createServer(
    {
      maxHeaderSize: HTTP_LIMITS.maxHeaderBytes,
      headersTimeout: HTTP_LIMITS.headersTimeoutMs,
      requestTimeout: HTTP_LIMITS.requestTimeoutMs,
      connectionsCheckingInterval: HTTP_LIMITS.checkIntervalMs,
      keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
    },
    (req, res) => {
      logRequest(req, res, requestLogger);
      route(options, req, res).catch((error: unknown) => {
        // Only the error's own words: errors from Bolt carry the whole request as properties.
        const err = error instanceof Error ? { type: error.name, message: error.message } : {};
        logger.error({ err, path: loggedPath(req) }, 'http handler failed');
        if (!res.headersSent) send(res, 500, 'application/json', '{"error":"internal"}');
        else res.end();
      });
    },
  );
  server.maxHeadersCount = HTTP_LIMITS.maxHeadersCount;
  // Idle sockets (a slow client, a keep-alive nobody uses) do not hold the server or shutdown.
  server.setTimeout(HTTP_LIMITS.idleTimeoutMs, (socket) => socket.destroy());
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // Oversized headers, a malformed request line, a header timeout: answer, log the code only.
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400;
    logger.warn({ code: error.code, status }, 'http client error');
    if (socket.writable && !socket.destroyed) {
      socket.end(
        `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`,
      );
    } else socket.destroy();
  });
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
