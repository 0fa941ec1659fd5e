/**
 * The mode kube-proxy says it runs, from its metrics server's /proxyMode (plain text: `ipvs`,
 * `nftables`; cmd/kube-proxy/app/server.go serveMetrics). metricsBindAddress defaults to
 * 127.0.0.1:10249 but some platforms bind the node IP instead (EKS: 0.0.0.0), hence two probes.
 */
import { curlBody, curlServerFailure, firstLine, url } from './common.js';
import {
  probeError,
  type HostPort,
  type Probe,
  type ProbeError,
  type ProbeContext,
  type ProbeResult,
} from './types.js';

function parseMode(result: ProbeResult): string | ProbeError {
  const failure = curlServerFailure(result, 'kube-proxy’s /proxyMode');
  if (failure !== undefined) return failure;
  const mode = result.stdout.trim();
  return /^[a-z]+$/.test(mode)
    ? mode
    : probeError('unparsable', `/proxyMode answered "${firstLine(mode)}", not a mode`);
}

const proxyModeArgv = (at: HostPort): string[] => curlBody(url(at, '/proxyMode'), 3);

export const proxyModeProbe: Probe<string> = {
  id: 'proxy-mode',
  describe: 'the mode kube-proxy reports on its metrics address (/proxyMode)',
  argv: (ctx) => proxyModeArgv(ctx.metrics),
  parse: parseMode,
};

const loopback = (host: string): boolean =>
  host === '127.0.0.1' || host === '::1' || host === 'localhost';

export const proxyModeNodeIPProbe: Probe<string> = {
  id: 'proxy-mode-node-ip',
  describe: 'the mode kube-proxy reports on the node IP (metrics bound to the node address)',
  applies: (ctx: ProbeContext) => ctx.nodeIP !== undefined && loopback(ctx.metrics.host),
  argv: (ctx) => proxyModeArgv({ host: ctx.nodeIP ?? ctx.metrics.host, port: ctx.metrics.port }),
  parse: parseMode,
};
