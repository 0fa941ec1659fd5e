// What kube-proxy sees of Services and EndpointSlices: one entry per (Service port, IP family)
// with its endpoints. Built once per resync and shared by every node, so 5,000 nodes × 20,000
// Services cost one catalog, not a copy per node.

import {
  asArray,
  asNumber,
  asRecord,
  asString,
  type KubeObject,
} from '../../apimachinery/types.js';
import { ipFamily, type IPFamily } from '../host/ip.js';

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface CatalogEndpoint {
  readonly ip: string;
  readonly port: number;
  readonly nodeName: string | undefined;
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
  readonly podName: string | undefined;
}

export interface CatalogServicePort {
  readonly namespace: string;
  readonly name: string;
  readonly portName: string;
  readonly protocol: Protocol;
  readonly family: IPFamily;
  readonly clusterIP: string;
  readonly port: number;
  readonly nodePort: number | undefined;
  readonly externalIPs: readonly string[];
  readonly loadBalancerIPs: readonly string[];
  readonly externalPolicyLocal: boolean;
  readonly internalPolicyLocal: boolean;
  readonly affinityTimeout: number | undefined;
  readonly endpoints: readonly CatalogEndpoint[];
}

export interface ServiceCatalog {
  readonly ports: readonly CatalogServicePort[];
  /** Every IP a Service answers on (ClusterIP, externalIPs, LB ingress) → its ports. */
  readonly byServiceIP: ReadonlyMap<string, readonly CatalogServicePort[]>;
  /** `IPv4/TCP/30080` → the Service port that owns the NodePort (see nodePortKey). */
  readonly byNodePort: ReadonlyMap<string, CatalogServicePort>;
  /** `ip:port` of every endpoint listed in a slice, ready or not (pods that exist). */
  readonly endpointsByAddress: ReadonlyMap<string, CatalogEndpoint>;
  /** Endpoint IPs (pods, or host-network addresses) → one of their endpoints. */
  readonly endpointsByIP: ReadonlyMap<string, CatalogEndpoint>;
  /**
   * `ns/slice` → the slice's `endpoints.kubernetes.io/last-change-trigger-time` and family, for
   * kube-proxy's network-programming latency (pkg/proxy/endpointschangetracker.go).
   */
  readonly changeTriggers: ReadonlyMap<string, ChangeTrigger>;
}

export interface ChangeTrigger {
  readonly family: IPFamily;
  readonly at: number;
}

export const emptyCatalog: ServiceCatalog = {
  ports: [],
  byServiceIP: new Map(),
  byNodePort: new Map(),
  endpointsByAddress: new Map(),
  endpointsByIP: new Map(),
  changeTriggers: new Map(),
};

const triggerAnnotation = 'endpoints.kubernetes.io/last-change-trigger-time';

/** Slices whose trigger-time annotation parses (RFC 3339), keyed by namespace/name. */
function changeTriggers(slices: readonly KubeObject[]): Map<string, ChangeTrigger> {
  const out = new Map<string, ChangeTrigger>();
  for (const slice of slices) {
    const at = Date.parse(slice.metadata.annotations?.[triggerAnnotation] ?? '');
    const family = asString(slice['addressType'], 'IPv4');
    if (Number.isNaN(at) || (family !== 'IPv4' && family !== 'IPv6')) continue;
    out.set(`${slice.metadata.namespace ?? 'default'}/${slice.metadata.name ?? ''}`, {
      family,
      at,
    });
  }
  return out;
}

export function nodePortKey(family: IPFamily, protocol: Protocol, nodePort: number): string {
  return `${family}/${protocol}/${nodePort}`;
}

/** ServicePortName.String(): `ns/name:port`, or `ns/name` for an unnamed port. */
export function servicePortName(sp: CatalogServicePort): string {
  return `${sp.namespace}/${sp.name}${sp.portName === '' ? '' : `:${sp.portName}`}`;
}

function protocolOf(value: unknown): Protocol {
  const p = asString(value, 'TCP');
  return p === 'UDP' || p === 'SCTP' ? p : 'TCP';
}

function sliceEndpoints(
  slice: KubeObject,
  portName: string,
  protocol: Protocol,
): CatalogEndpoint[] {
  const port = asArray(slice['ports'])
    .map(asRecord)
    .find((p) => asString(p['name']) === portName && protocolOf(p['protocol']) === protocol);
  if (!port) return [];
  return asArray(slice['endpoints']).flatMap((raw) => {
    const ep = asRecord(raw);
    const conditions = asRecord(ep['conditions']);
    const terminating = conditions['terminating'] === true;
    // kube-proxy treats a missing `ready` as ready (unknown state), except while terminating.
    const ready = conditions['ready'] === undefined ? !terminating : conditions['ready'] === true;
    const serving = conditions['serving'] === undefined ? ready : conditions['serving'] === true;
    const nodeName = asString(ep['nodeName']);
    const podName = asString(asRecord(ep['targetRef'])['name']);
    return asArray(ep['addresses']).map((addr) => ({
      ip: asString(addr),
      port: asNumber(port['port']),
      nodeName: nodeName === '' ? undefined : nodeName,
      ready,
      serving,
      terminating,
      podName: podName === '' ? undefined : podName,
    }));
  });
}

function servicePorts(svc: KubeObject, slices: readonly KubeObject[]): CatalogServicePort[] {
  const spec = asRecord(svc['spec']);
  const type = asString(spec['type'], 'ClusterIP');
  const clusterIPs = asArray(spec['clusterIPs']).map((ip) => asString(ip));
  const ips = clusterIPs.length > 0 ? clusterIPs : [asString(spec['clusterIP'])];
  if (type === 'ExternalName' || ips.every((ip) => ip === '' || ip === 'None')) return [];
  const lbIPs = asArray(asRecord(asRecord(svc['status'])['loadBalancer'])['ingress'])
    .map((i) => asString(asRecord(i)['ip']))
    .filter((ip) => ip !== '');
  const affinity = asString(spec['sessionAffinity']) === 'ClientIP';
  const timeout = asNumber(
    asRecord(asRecord(spec['sessionAffinityConfig'])['clientIP'])['timeoutSeconds'],
    10800,
  );
  const externalLocal = asString(spec['externalTrafficPolicy']) === 'Local';
  return ips.flatMap((clusterIP) => {
    const family = ipFamily(clusterIP);
    if (!family) return [];
    const familySlices = slices.filter((s) => asString(s['addressType'], 'IPv4') === family);
    return asArray(spec['ports']).map((raw): CatalogServicePort => {
      const p = asRecord(raw);
      const protocol = protocolOf(p['protocol']);
      const portName = asString(p['name']);
      const nodePort = asNumber(p['nodePort']);
      return {
        namespace: svc.metadata.namespace ?? 'default',
        name: svc.metadata.name ?? '',
        portName,
        protocol,
        family,
        clusterIP,
        port: asNumber(p['port']),
        nodePort:
          (type === 'NodePort' || type === 'LoadBalancer') && nodePort > 0 ? nodePort : undefined,
        externalIPs: asArray(spec['externalIPs'])
          .map((ip) => asString(ip))
          .filter((ip) => ipFamily(ip) === family),
        loadBalancerIPs:
          type === 'LoadBalancer' ? lbIPs.filter((ip) => ipFamily(ip) === family) : [],
        externalPolicyLocal: externalLocal && type !== 'ClusterIP',
        internalPolicyLocal: asString(spec['internalTrafficPolicy']) === 'Local',
        affinityTimeout: affinity ? timeout : undefined,
        endpoints: familySlices.flatMap((s) => sliceEndpoints(s, portName, protocol)),
      };
    });
  });
}

/** kube-proxy skips Services labelled for another proxy (`service.kubernetes.io/service-proxy-name`). */
function proxied(svc: KubeObject): boolean {
  return svc.metadata.labels?.['service.kubernetes.io/service-proxy-name'] === undefined;
}

export function buildCatalog(
  services: readonly KubeObject[],
  endpointSlices: readonly KubeObject[],
): ServiceCatalog {
  const slicesBySvc = new Map<string, KubeObject[]>();
  for (const slice of endpointSlices) {
    const svc = slice.metadata.labels?.['kubernetes.io/service-name'];
    if (svc === undefined) continue;
    const key = `${slice.metadata.namespace ?? 'default'}/${svc}`;
    const list = slicesBySvc.get(key);
    if (list) list.push(slice);
    else slicesBySvc.set(key, [slice]);
  }
  const ports = services
    .filter(proxied)
    .flatMap((svc) =>
      servicePorts(
        svc,
        slicesBySvc.get(`${svc.metadata.namespace ?? 'default'}/${svc.metadata.name ?? ''}`) ?? [],
      ),
    );
  const byServiceIP = new Map<string, CatalogServicePort[]>();
  const byNodePort = new Map<string, CatalogServicePort>();
  const endpointsByAddress = new Map<string, CatalogEndpoint>();
  const endpointsByIP = new Map<string, CatalogEndpoint>();
  for (const sp of ports) {
    for (const ip of [sp.clusterIP, ...sp.externalIPs, ...sp.loadBalancerIPs]) {
      const list = byServiceIP.get(ip);
      if (list) list.push(sp);
      else byServiceIP.set(ip, [sp]);
    }
    if (sp.nodePort !== undefined)
      byNodePort.set(nodePortKey(sp.family, sp.protocol, sp.nodePort), sp);
    for (const ep of sp.endpoints) {
      endpointsByAddress.set(`${ep.ip}:${ep.port}`, ep);
      endpointsByIP.set(ep.ip, ep);
    }
  }
  return {
    ports,
    byServiceIP,
    byNodePort,
    endpointsByAddress,
    endpointsByIP,
    changeTriggers: changeTriggers(endpointSlices),
  };
}

/** CategorizeEndpoints: ready endpoints, or serving+terminating ones when none is ready. */
export function usableEndpoints(sp: CatalogServicePort): CatalogEndpoint[] {
  const ready = sp.endpoints.filter((e) => e.ready);
  return ready.length > 0 ? ready : sp.endpoints.filter((e) => e.serving && e.terminating);
}
