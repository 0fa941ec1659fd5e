/**
 * Where to dial kube-proxy's metrics and health servers from the node's host network, from its
 * KubeProxyConfiguration (facts §2): metricsBindAddress defaults to 127.0.0.1:10249 (an empty
 * string in the file too), healthzBindAddress to 0.0.0.0:10256. A wildcard bind is dialled on
 * loopback; a specific address on that address.
 */
import type { HostPort, ProbeContext } from './types.js';

export const DEFAULT_METRICS = { host: '127.0.0.1', port: 10249 } as const;
export const DEFAULT_HEALTHZ = { host: '127.0.0.1', port: 10256 } as const;

/** `0.0.0.0:10249`, `[::]:10256`, `:10249`, `10.0.0.5:10249`, `0.0.0.0/0:10249` → host and port. */
export function dialAddress(
  bind: string | undefined,
  fallback: HostPort,
  nodeIP?: string,
): HostPort {
  const text = bind?.trim() ?? '';
  if (text === '') return { ...fallback };
  const match = /^(?:\[([^\]]*)\]|([^:]*)):(\d+)$/.exec(text);
  if (match === null) return { ...fallback };
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  if (host === '' || host === '0.0.0.0' || host === '0.0.0.0/0') return { host: '127.0.0.1', port };
  if (host === '::' || host === '::/0') return { host: '::1', port };
  // Another CIDR (newer kube-proxy accepts them): the node's own address is inside it, or nothing is.
  if (host.includes('/')) return { host: nodeIP ?? fallback.host, port };
  return { host, port };
}

export function probeContext(input: {
  nodeIP?: string | undefined;
  metricsBindAddress?: string | undefined;
  healthzBindAddress?: string | undefined;
}): ProbeContext {
  const { nodeIP } = input;
  return {
    ...(nodeIP === undefined ? {} : { nodeIP }),
    metrics: dialAddress(input.metricsBindAddress, DEFAULT_METRICS, nodeIP),
    healthz: dialAddress(input.healthzBindAddress, DEFAULT_HEALTHZ, nodeIP),
  };
}
