// Connection upgrades on the API port: WebSocket exec (v5 down to channel.k8s.io). Faults, counting
// and the pre-upgrade checks run as for any request; SPDY is refused with the same Status errors.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { badRequest, pageNotFound } from '../../apimachinery/errors.js';
import { route } from '../routes.js';
import type { ObjectStore } from '../../store/store.js';
import type { ExecParams, ExecProvider } from './exec.js';
import { parseExecParams, runExecSession } from './exec.js';
import { execProtocols, negotiateProtocol } from './exec-protocol.js';
import type { FaultInjector } from '../admin/faults.js';
import type { OpenStreams } from './open-streams.js';
import { writeRawError, writeRawJson, writeRawText } from './raw-response.js';
import type { KubeletRefusal, KubeletView } from './kubelet.js';
import {
  UnknownStatusError,
  dialError,
  encodeValues,
  kubeletRefusal,
  kubeletURL,
} from './kubelet.js';
import { requestInfo } from '../request-info.js';
import type { RequestStats } from '../admin/stats.js';

export interface UpgradeContext {
  store: ObjectStore;
  /** The nodes' kubelets: up or down, and which containers they run. */
  kubelet?: KubeletView | undefined;
  faults: FaultInjector;
  stats: RequestStats;
  streams: OpenStreams;
  exec: ExecProvider;
  execTimeoutMs: number;
}

/** What the apiserver's upgrade proxy hands back when the kubelet side refuses. */
function writeRefusal(socket: Duplex, refusal: KubeletRefusal): void {
  if (refusal.kind === 'no-container') {
    // streaming.WriteError: 500 with the error text, passed through as the kubelet wrote it.
    writeRawText(socket, 500, `container not found ("${refusal.container}")`);
    return;
  }
  const error = new UnknownStatusError(`error dialing backend: ${dialError(refusal.host)}`);
  writeRawJson(socket, error.code, error.toStatus());
}

/** The error the stream translator's SPDY leg to the kubelet returns (remotecommand, spdy.Negotiate). */
function translatorError(params: ExecParams, refusal: KubeletRefusal): string {
  if (refusal.kind === 'no-container')
    return `unable to upgrade connection: container not found ("${refusal.container}")`;
  const { pod } = params;
  const values: [string, string][] = [];
  if (params.stdin) values.push(['input', '1']);
  if (params.stdout) values.push(['output', '1']);
  if (params.stderr) values.push(['error', '1']);
  if (params.tty) values.push(['tty', '1']);
  for (const c of params.command) values.push(['command', c]);
  const path = `/exec/${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}/${params.container}`;
  const url = kubeletURL(refusal.host, path, encodeValues(values));
  return `error sending request: Post "${url}": ${dialError(refusal.host)}`;
}

function offeredProtocols(req: IncomingMessage): string[] | undefined {
  const header = req.headers['sec-websocket-protocol'];
  if (header === undefined) return undefined;
  return header
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

export function createUpgradeHandler(
  ctx: UpgradeContext,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const chosen = new WeakMap<IncomingMessage, string | false>();
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (_offered, req) => chosen.get(req) ?? false,
  });

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://twin.invalid');
    const method = req.method ?? 'GET';
    const r = route(url.pathname);
    if (r.kind !== 'resource') {
      if (r.kind !== 'admin') ctx.stats.recordNonResource();
      throw pageNotFound();
    }
    const { target } = r;
    const info = requestInfo(method, target, url.searchParams);
    ctx.stats.record(info);
    const decision = ctx.faults.decide(info, { group: target.def.group, name: target.name });
    if (decision.latencyMs > 0) await new Promise((done) => setTimeout(done, decision.latencyMs));
    if (decision.reset) {
      socket.destroy();
      return;
    }
    if (decision.response) {
      const { code, body, headers } = decision.response;
      writeRawJson(socket, code, body, headers);
      return;
    }
    if (info.resource !== 'pods/exec') throw pageNotFound();
    const params = parseExecParams(ctx.store, target, url.searchParams);
    const websocket = (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
    const offered = offeredProtocols(req);
    const refusal = kubeletRefusal(ctx.store, ctx.kubelet, params.pod, params.container);
    // A v5 WebSocket goes through the apiserver's stream translator (upgraded first, the kubelet's
    // error then ends the session); anything else is proxied, and the client gets the raw answer.
    const translated = websocket && (offered ?? []).includes('v5.channel.k8s.io');
    if (refusal && !translated) {
      writeRefusal(socket, refusal);
      return;
    }
    if (method !== 'GET' || !websocket) {
      // kubectl retries a failed WebSocket exec as a SPDY POST; it prints this Status.
      throw badRequest(
        `the twin does not implement SPDY (Upgrade: ${req.headers.upgrade ?? ''}); exec needs a WebSocket with one of ${execProtocols.join(', ')}`,
      );
    }
    // No subprotocol header means the original binary protocol, as wsstream assumes.
    const protocol = offered === undefined ? 'channel.k8s.io' : negotiateProtocol(offered);
    if (protocol === undefined) {
      throw badRequest(
        `requested protocol(s) are not supported: [${(offered ?? []).join(' ')}]; supports [${execProtocols.join(' ')}]`,
      );
    }
    chosen.set(req, offered === undefined ? false : protocol);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const untrack = ctx.streams.add('exec', info.resource, () => ws.terminate());
      ws.on('close', untrack);
      // A reset connection surfaces as 'error'; unhandled, it would take the twin down.
      ws.on('error', () => ws.terminate());
      const refused = refusal === undefined ? undefined : translatorError(params, refusal);
      runExecSession(ws, protocol, params, ctx.exec, ctx.execTimeoutMs, refused).catch(() =>
        ws.terminate(),
      );
    });
  }

  return (req, socket, head) => {
    // A client that vanishes mid-handshake must not become an unhandled 'error' event.
    socket.on('error', () => socket.destroy());
    upgrade(req, socket, head).catch((error: unknown) => writeRawError(socket, error));
  };
}
