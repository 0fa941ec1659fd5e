// `curl` from the node, answered from reachability: refused prints curl 8's
// `curl: (7) Failed to connect to H port P after 0 ms: Couldn't connect to server` (exit 7), a
// silent drop times out (exit 28), cluster DNS names resolve only while kube-dns is reachable
// (exit 6 otherwise). kube-proxy's /healthz, /livez, /metrics and /proxyMode answer for real;
// workload endpoints answer 200 with a one-line body naming the pod (the app is not modelled).

import { fail, nodeState, type CommandContext, type CommandResult } from './types.js';
import { parseCurlArgs, parseUrl, type CurlArgs } from './curl-args.js';
import { healthAnswer, plainText, textAnswer, type HttpAnswer } from '../kube-proxy/healthz.js';
import { ipFamily } from '../host/ip.js';
import { metricsText } from '../kube-proxy/metrics.js';
import { probe, type Answerer } from '../reachability/reachability.js';
import type { ServiceCatalog } from '../dataplane/catalog.js';
import type { NodeState } from '../view.js';
import { atLeast, type Version } from '../versions.js';

const statusText: Record<number, string> = {
  200: 'OK',
  404: 'Not Found',
  503: 'Service Unavailable',
};
const meterHeader =
  '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n';
const meterZero =
  '\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0';

function resolve(ctx: CommandContext, host: string): string | undefined {
  if (ipFamily(host)) return host;
  if (host === 'localhost') return '127.0.0.1';
  const node = ctx.view.node(host);
  if (node) return node.facts.nodeIPs[0] ?? node.facts.addresses[0];
  const m = /^([a-z0-9-]+)\.([a-z0-9-]+)(?:\.svc(?:\.cluster\.local)?)?\.?$/.exec(host);
  if (!m) return undefined;
  const ports = ctx.view.catalog.ports;
  const dns = ports.find(
    (p) => p.namespace === 'kube-system' && p.name === 'kube-dns' && p.protocol === 'UDP',
  );
  if (
    !dns ||
    !probe(
      ctx.view,
      ctx.nodeName,
      { ip: dns.clusterIP, port: dns.port, protocol: 'UDP' },
      ctx.hostNetwork,
    ).ok
  )
    return undefined;
  return ports.find((p) => p.name === m[1] && p.namespace === m[2])?.clusterIP;
}

function answer(ctx: CommandContext, who: Answerer, path: string): HttpAnswer {
  if (who.kind === 'endpoint') {
    const ep = who.endpoint;
    return {
      status: 200,
      headers: [['Content-Type', plainText]],
      body: `${ep.podName ?? ep.ip} ${ep.ip}:${ep.port}${ep.nodeName === undefined ? '' : ` on ${ep.nodeName}`}\n`,
    };
  }
  const state = ctx.view.node(who.node);
  const rt = state?.proxy;
  // Go's http.NotFound, which both kube-proxy muxes answer for an unknown path.
  const notFound = textAnswer(404, '404 page not found\n');
  if (!state || !rt) return notFound;
  if (who.server === 'healthz') {
    if (path !== '/healthz' && path !== '/livez') return notFound;
    const a = healthAnswer(rt, state.node, ctx.now, path);
    const counts = path === '/healthz' ? rt.served.healthz : rt.served.livez;
    counts[String(a.status)] = (counts[String(a.status)] ?? 0) + 1;
    return a;
  }
  if (path === '/metrics')
    return {
      status: 200,
      headers: [['Content-Type', metricsContentType(rt.version)]],
      body: metricsText(rt, syncedCatalog(state) ?? ctx.view.catalog, state.facts, ctx.now),
    };
  // serveMetrics (cmd/kube-proxy/app/server.go): fmt.Fprintf(w, "%s", proxyMode), no newline.
  if (path === '/proxyMode') return textAnswer(200, rt.config?.mode ?? 'iptables');
  // healthz.InstallHandler on the metrics mux: the component-base ping check.
  if (path === '/healthz') return textAnswer(200, 'ok');
  return notFound;
}

/** promhttp's negotiated text format; prometheus/common ≥ 0.55 (Kubernetes 1.33+) adds escaping. */
function metricsContentType(v: Version): string {
  const base = 'text/plain; version=0.0.4; charset=utf-8';
  return atLeast(v, 33) ? `${base}; escaping=underscores` : base;
}

/** The Services kube-proxy last programmed (its metrics count those, not the current ones). */
function syncedCatalog(state: NodeState): ServiceCatalog | undefined {
  const dp = state.dataplane;
  const mode = state.proxy?.config?.mode;
  return (mode === 'nftables' ? dp.nft : mode === 'ipvs' ? dp.ipvs : dp.iptables)?.catalog;
}

/** net/http's response head: the handler's headers sorted, then Date and Content-Length (or chunked). */
function headers(a: HttpAnswer, now: number, head: boolean): string {
  const date = new Date(now).toUTCString();
  const size = Buffer.byteLength(a.body);
  // A body past the 2048-byte buffer (bufferBeforeChunkingSize) goes out chunked, its length
  // unknown; a HEAD response is never chunked, so it then carries neither header.
  const long = size > 2048;
  const length = long
    ? head
      ? ''
      : 'Transfer-Encoding: chunked\r\n'
    : `Content-Length: ${size}\r\n`;
  const own = [...a.headers].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return `HTTP/1.1 ${a.status} ${statusText[a.status] ?? ''}\r\n${own.map(([k, v]) => `${k}: ${v}\r\n`).join('')}Date: ${date}\r\n${length}\r\n`;
}

function writeOut(fmt: string, code: number, exit: number, ip: string, port: number): string {
  return fmt
    .replace(/%\{http_code\}|%\{response_code\}/g, String(code).padStart(3, '0'))
    .replace(/%\{time_total\}/g, exit === 0 ? '0.001873' : '0.000000')
    .replace(/%\{remote_ip\}/g, exit === 0 ? ip : '')
    .replace(/%\{remote_port\}/g, exit === 0 ? String(port) : '')
    .replace(/%\{exitcode\}/g, String(exit))
    .replace(/\\n/g, '\n')
    .replace(/\\t/g, '\t');
}

function failure(
  a: CurlArgs,
  exit: number,
  message: string,
  ip: string,
  port: number,
): CommandResult {
  const meter = a.silent ? '' : meterHeader + meterZero;
  const err = !a.silent || a.showError ? `curl: (${exit}) ${message}\n` : '';
  const stdout = a.writeOut === undefined ? '' : writeOut(a.writeOut, 0, exit, ip, port);
  return fail(exit, `${meter}${err}`, stdout);
}

function timeoutMessage(a: CurlArgs, host: string, port: number): string {
  if (a.connectTimeout !== undefined && (a.maxTime === undefined || a.connectTimeout <= a.maxTime))
    return `Failed to connect to ${host} port ${port} after ${Math.round(a.connectTimeout * 1000) + 2} ms: Timeout was reached`;
  if (a.maxTime !== undefined)
    return `Connection timed out after ${Math.round(a.maxTime * 1000) + 1} milliseconds`;
  return `Failed to connect to ${host} port ${port} after 129000 ms: Connection timed out`;
}

export function runCurl(ctx: CommandContext, args: readonly string[]): CommandResult {
  nodeState(ctx);
  const a = parseCurlArgs(args);
  const url = a.url === undefined ? undefined : parseUrl(a.url);
  if (!url)
    return fail(
      a.url === undefined ? 2 : 3,
      a.url === undefined
        ? "curl: try 'curl --help' or 'curl --manual' for more information\n"
        : `curl: (3) URL using bad/illegal format or missing URL\n`,
    );
  const ip = resolve(ctx, url.host);
  if (ip === undefined) return failure(a, 6, `Could not resolve host: ${url.host}`, '', url.port);
  const result = probe(
    ctx.view,
    ctx.nodeName,
    { ip, port: url.port, protocol: 'TCP' },
    ctx.hostNetwork,
  );
  if (result.outcome === 'refused')
    return failure(
      a,
      7,
      `Failed to connect to ${url.host} port ${url.port} after 0 ms: Couldn't connect to server`,
      ip,
      url.port,
    );
  if (result.outcome === 'timeout' || !result.answerer)
    return failure(a, 28, timeoutMessage(a, url.host, url.port), ip, url.port);
  const http = answer(ctx, result.answerer, url.path);
  if (a.failOnError && http.status >= 400) {
    const r = failure(a, 22, `The requested URL returned error: ${http.status}`, ip, url.port);
    return {
      ...r,
      stdout: a.writeOut === undefined ? '' : writeOut(a.writeOut, http.status, 22, ip, url.port),
    };
  }
  const head = a.head || a.include ? headers(http, ctx.now, a.head) : '';
  const body = a.head ? '' : http.body;
  const size = Buffer.byteLength(body);
  const shown = a.output === undefined ? head + body : '';
  const meter = a.silent
    ? ''
    : `${meterHeader}${meterZero}\r100 ${String(size).padStart(5)}  100 ${String(size).padStart(5)}    0     0  ${String(size * 500).padStart(5)}      0 --:--:-- --:--:-- --:--:-- ${String(size * 500).padStart(5)}\n`;
  const out =
    a.writeOut === undefined ? shown : shown + writeOut(a.writeOut, http.status, 0, ip, url.port);
  return { exitCode: 0, stdout: out, stderr: meter };
}
