/** Which Services a check looks at, and how findings name them. */
import type { KubeService } from '../../core/kube.js';

/**
 * Services that open NodePorts: every NodePort Service, and LoadBalancers unless every listed
 * port lacks a nodePort (allocateLoadBalancerNodePorts: false).
 */
export function nodePortServices(services: readonly KubeService[]): KubeService[] {
  return services.filter((svc) => {
    const type = svc.spec?.type;
    if (type === 'NodePort') return true;
    if (type !== 'LoadBalancer') return false;
    const ports = svc.spec?.ports ?? [];
    return ports.length === 0 || ports.some((p) => p.nodePort !== undefined);
  });
}

/** `namespace/name`. */
export function serviceName(svc: KubeService): string {
  return `${svc.metadata.namespace ?? 'default'}/${svc.metadata.name}`;
}
