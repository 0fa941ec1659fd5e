// Whether a connection from a node reaches something, and who answers: a ClusterIP works only
// while the source node's dataplane programs it and a live endpoint remains; a NodePort works
// only on addresses the target node's dataplane accepts; kube-proxy's own servers answer on their
// bind addresses while it runs. Refused = RST/reject (curl exit 7), timeout = silence (exit 28).

import { servicePortName, type CatalogEndpoint, type Protocol } from '../dataplane/catalog.js';
import { ipFamily, isLoopback } from '../host/ip.js';
import { nodePortVerdict, serviceIPVerdict, type Verdict } from './dataplane-paths.js';
import { nodeDown, proxyRunning, type ClusterView, type NodeState } from '../view.js';

export interface ProbeTarget {
  readonly ip: string;
  readonly port: number;
  readonly protocol?: Protocol;
}

export type Answerer =
  | { readonly kind: 'endpoint'; readonly endpoint: CatalogEndpoint; readonly service?: string }
  | { readonly kind: 'kube-proxy'; readonly node: string; readonly server: 'healthz' | 'metrics' };

export interface ProbeResult {
  readonly ok: boolean;
  readonly outcome: 'ok' | 'refused' | 'timeout';
  readonly detail: string;
  readonly answerer?: Answerer;
}

const refused = (detail: string): ProbeResult => ({ ok: false, outcome: 'refused', detail });
const timeout = (detail: string): ProbeResult => ({ ok: false, outcome: 'timeout', detail });

/** FNV-1a: a deterministic stand-in for the kernel's random endpoint choice. */
function stableIndex(seed: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return h % n;
}

function endpointAlive(view: ClusterView, ep: CatalogEndpoint): boolean {
  const current = view.catalog.endpointsByIP.get(ep.ip);
  const owner = view.nodeForAddress(ep.ip);
  if (!current && !owner) return false; // the pod is gone: stale rules DNAT into nothing
  const nodeName = current?.nodeName ?? owner?.name;
  const node = nodeName === undefined ? undefined : view.node(nodeName);
  return !node || !nodeDown(node);
}

function pick(
  view: ClusterView,
  eps: readonly CatalogEndpoint[],
  seed: string,
  service: string,
  how: string,
): ProbeResult {
  const alive = eps.filter((ep) => endpointAlive(view, ep));
  if (alive.length === 0)
    return timeout(
      `${how}: endpoints ${eps.map((e) => `${e.ip}:${e.port}`).join(', ')} of ${service} do not answer`,
    );
  const index = stableIndex(seed, alive.length);
  const ep = alive[index] ?? alive[0];
  if (!ep) return timeout(`${how}: no endpoint`);
  return {
    ok: true,
    outcome: 'ok',
    detail: `${how} → ${ep.ip}:${ep.port} (${service})`,
    answerer: { kind: 'endpoint', endpoint: ep, service },
  };
}

function fromVerdict(view: ClusterView, v: Verdict, seed: string, what: string): ProbeResult {
  if (v.kind === 'forward')
    return pick(view, v.endpoints, seed, servicePortName(v.service), `${what} via ${v.backend}`);
  return v.kind === 'reject'
    ? refused(`${what}: ${v.backend} rejects: ${v.reason}`)
    : timeout(`${what}: ${v.backend} drops: ${v.reason}`);
}

function bindMatches(bind: string, address: string): boolean {
  const host = bind.slice(0, bind.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  if (host === '' || host === '0.0.0.0') return ipFamily(address) === 'IPv4';
  if (host === '::') return true;
  return host === address;
}

function bindPort(bind: string): number {
  return Number(bind.slice(bind.lastIndexOf(':') + 1));
}

/** A connection to `address:port` arriving at `target` (one of its addresses, or loopback). */
function toHost(
  view: ClusterView,
  target: NodeState,
  address: string,
  port: number,
  proto: Protocol,
  local: boolean,
  seed: string,
): ProbeResult {
  const what = `${address}:${port}/${proto} on ${target.name}`;
  const proxy = proxyRunning(target);
  const cfg = target.proxy?.config;
  if (proto === 'TCP' && cfg) {
    for (const [server, bind] of [
      ['healthz', cfg.healthzBindAddress],
      ['metrics', cfg.metricsBindAddress],
    ] as const) {
      if (port !== bindPort(bind) || !bindMatches(bind, address)) continue;
      if (!proxy) return refused(`${what}: kube-proxy is not running`);
      return {
        ok: true,
        outcome: 'ok',
        detail: `${what}: kube-proxy ${server}`,
        answerer: { kind: 'kube-proxy', node: target.name, server },
      };
    }
  }
  const np = nodePortVerdict(target, address, port, proto, local);
  if (np) return fromVerdict(view, np, seed, `NodePort ${what}`);
  const hostEp = view.catalog.endpointsByAddress.get(`${address}:${port}`);
  if (hostEp && !isLoopback(address)) return pick(view, [hostEp], seed, `${address}:${port}`, what);
  return refused(`${what}: nothing accepts this port there`);
}

export function probe(
  view: ClusterView,
  fromNode: string,
  target: ProbeTarget,
  hostNetwork = true,
): ProbeResult {
  const from = view.node(fromNode);
  if (!from) return timeout(`unknown node ${fromNode}`);
  const proto = target.protocol ?? 'TCP';
  const seed = `${fromNode}|${target.ip}:${target.port}`;
  if (isLoopback(target.ip)) {
    if (!hostNetwork)
      return refused(`${target.ip}:${target.port}: nothing listens on the pod's loopback`);
    return toHost(view, from, target.ip, target.port, proto, true, seed);
  }
  const owner = view.nodeForAddress(target.ip);
  if (owner) {
    if (owner.name !== from.name && nodeDown(owner))
      return timeout(`${target.ip}: node ${owner.name} is NotReady and does not answer`);
    return toHost(view, owner, target.ip, target.port, proto, owner.name === from.name, seed);
  }
  const vip = serviceIPVerdict(from, target.ip, target.port, proto);
  if (vip)
    return fromVerdict(view, vip, seed, `${target.ip}:${target.port}/${proto} from ${fromNode}`);
  const ep = view.catalog.endpointsByAddress.get(`${target.ip}:${target.port}`);
  if (ep) return pick(view, [ep], seed, `${target.ip}:${target.port}`, 'direct');
  if (view.catalog.endpointsByIP.has(target.ip)) {
    const pod = view.catalog.endpointsByIP.get(target.ip);
    return pod && endpointAlive(view, pod)
      ? refused(`${target.ip}: nothing listens on port ${target.port}`)
      : timeout(`${target.ip}: pod does not answer`);
  }
  return timeout(`${target.ip}:${target.port}: no route answers from ${fromNode}`);
}
