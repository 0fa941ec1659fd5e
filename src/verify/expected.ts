/**
 * What the dataplane must hold for the cluster's Services: every ClusterIP (headless `None` and
 * ExternalName Services have none) and every (ClusterIP, protocol, port). kube-proxy programs
 * each family's IPs in that family's table (facts §5), so expectations carry the family.
 */
import { ipFamily, normalizeIp, type IpFamily } from '../core/ip.js';
import type { KubeService } from '../core/kube.js';

export interface ExpectedClusterIP {
  ip: string;
  family: IpFamily;
  service: string;
}

export interface ExpectedPort extends ExpectedClusterIP {
  protocol: 'tcp' | 'udp' | 'sctp';
  port: number;
  nodePort?: number;
}

export interface ExpectedServices {
  clusterIPs: ExpectedClusterIP[];
  ports: ExpectedPort[];
}

export function serviceRef(svc: KubeService): string {
  return `${svc.metadata.namespace ?? 'default'}/${svc.metadata.name}`;
}

/** `10.96.0.10 udp 53`: how a port is named in a verdict. */
export const portText = (p: ExpectedPort): string =>
  `${p.ip} ${p.protocol} ${p.port} (${p.service})`;

export function expectedServices(services: readonly KubeService[]): ExpectedServices {
  const clusterIPs: ExpectedClusterIP[] = [];
  const ports: ExpectedPort[] = [];
  for (const svc of services) {
    if (svc.spec?.type === 'ExternalName') continue;
    const ips =
      svc.spec?.clusterIPs ?? (svc.spec?.clusterIP === undefined ? [] : [svc.spec.clusterIP]);
    for (const raw of ips) {
      const family = ipFamily(raw);
      if (family === undefined) continue; // '', 'None'
      const ip = normalizeIp(raw);
      const service = serviceRef(svc);
      clusterIPs.push({ ip, family, service });
      for (const p of svc.spec?.ports ?? []) {
        const protocol = (p.protocol ?? 'TCP').toLowerCase();
        if (protocol !== 'tcp' && protocol !== 'udp' && protocol !== 'sctp') continue;
        ports.push({
          ip,
          family,
          service,
          protocol,
          port: p.port,
          ...(typeof p.nodePort === 'number' ? { nodePort: p.nodePort } : {}),
        });
      }
    }
  }
  return { clusterIPs, ports };
}

export function familiesOf(expected: ExpectedServices): Set<IpFamily> {
  return new Set(expected.clusterIPs.map((c) => c.family));
}
