/**
 * kube-proxy's health server (facts §7): /healthz is 503 when a queued update is older than
 * 2 × syncPeriod or when the node is being deleted (nodeEligible false: not a kube-proxy fault);
 * /livez ignores the node. `-w '\n%{http_code}'` appends the status on its own line, so a 503 is
 * read as an answer rather than a curl failure.
 */
import { parseHealthz, type ProxyHealth } from '../core/parse/healthz.js';
import { writtenStatus } from '../core/parse/curl.js';
import { curlBody, curlServerFailure, fromParsed, url } from './common.js';
import {
  probeError,
  type HostPort,
  type ProbeError,
  type Probe,
  type ProbeResult,
} from './types.js';

function parseHealth(result: ProbeResult, path: string): ProxyHealth | ProbeError {
  const failure = curlServerFailure(result, `kube-proxy’s ${path}`);
  if (failure !== undefined) return failure;
  const cut = result.stdout.lastIndexOf('\n');
  const status = writtenStatus(result.stdout.slice(cut + 1));
  if (cut < 0 || status === undefined)
    return probeError('unparsable', `${path}: no HTTP status after the body`);
  return fromParsed(parseHealthz(result.stdout.slice(0, cut), status));
}

const argv = (at: HostPort, path: string): string[] =>
  curlBody(url(at, path), 3, ['-w', '\\n%{http_code}']);

export const healthzProbe: Probe<ProxyHealth> = {
  id: 'healthz',
  describe: 'kube-proxy’s /healthz (status and body)',
  argv: (ctx) => argv(ctx.healthz, '/healthz'),
  parse: (result) => parseHealth(result, '/healthz'),
};

export const livezProbe: Probe<ProxyHealth> = {
  id: 'livez',
  describe: 'kube-proxy’s /livez, which ignores whether the node is being deleted',
  argv: (ctx) => argv(ctx.healthz, '/livez'),
  parse: (result) => parseHealth(result, '/livez'),
};
