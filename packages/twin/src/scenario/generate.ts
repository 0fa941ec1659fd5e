// Deterministic bulk objects for `spec.generate`: node pools and services (with EndpointSlices)
// so scale scenarios stay small files. Same input, same names, addresses and uids every time.

import { createHash } from 'node:crypto';
import type { GeneratedServices, NodePool } from './schema.js';
import type { KubeObject } from '../apimachinery/types.js';

/** A stable UUID-shaped id derived from a name, so generated owner references line up. */
export function stableUid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function ip(base: number, offset: number): string {
  const n = (base + offset) >>> 0;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

const nodeBase = (10 << 24) | (1 << 16);
const podBase = (10 << 24) | (64 << 16);

/** osImage as the kubelet reports it, inferred from the kernel string when not given. */
export function osImageFor(kernel: string): string {
  if (kernel.includes('amzn2023')) return 'Amazon Linux 2023.7.20250512';
  if (kernel.includes('amzn2')) return 'Amazon Linux 2';
  if (kernel.startsWith('5.4.')) return 'Ubuntu 20.04.6 LTS';
  if (kernel.startsWith('5.15.')) return 'Ubuntu 22.04.5 LTS';
  if (kernel.startsWith('6.8.')) return 'Ubuntu 24.04.2 LTS';
  if (kernel.startsWith('6.1.')) return 'Debian GNU/Linux 12 (bookworm)';
  return 'Linux';
}

export function generateNodes(pools: readonly NodePool[], kubernetesVersion: string): KubeObject[] {
  const nodes: KubeObject[] = [];
  let index = 0;
  for (const pool of pools) {
    for (let i = 1; i <= pool.count; i += 1) {
      index += 1;
      const name = `${pool.namePrefix}${i}`;
      const kernel = pool.kernel ?? '6.1.0-31-amd64';
      const address = ip(nodeBase, 10 + index);
      nodes.push({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          uid: stableUid(`node/${name}`),
          labels: {
            'kubernetes.io/arch': 'amd64',
            'kubernetes.io/hostname': name,
            'kubernetes.io/os': 'linux',
            ...pool.labels,
          },
        },
        spec: {
          podCIDR: `${ip(podBase, index * 256)}/24`,
          podCIDRs: [`${ip(podBase, index * 256)}/24`],
        },
        status: {
          addresses: [
            { type: 'InternalIP', address },
            { type: 'Hostname', address: name },
          ],
          capacity: {
            cpu: '4',
            'ephemeral-storage': '101430960Ki',
            memory: '16374420Ki',
            pods: '110',
          },
          allocatable: {
            cpu: '4',
            'ephemeral-storage': '93478772582',
            memory: '16272020Ki',
            pods: '110',
          },
          nodeInfo: {
            architecture: 'amd64',
            bootID: stableUid(`boot/${name}`),
            containerRuntimeVersion: pool.containerRuntimeVersion ?? 'containerd://1.7.27',
            kernelVersion: kernel,
            kubeProxyVersion: '',
            kubeletVersion: pool.kubeletVersion ?? kubernetesVersion,
            machineID: stableUid(`machine/${name}`).replace(/-/g, ''),
            operatingSystem: 'linux',
            osImage: pool.osImage ?? osImageFor(kernel),
            systemUUID: stableUid(`system/${name}`),
          },
        },
      });
    }
  }
  return nodes;
}

/** Services spread over `namespaces` namespaces, every Nth a NodePort, each with one slice. */
export function generateServices(
  spec: GeneratedServices,
  nodeNames: readonly string[],
): { namespaces: string[]; objects: KubeObject[] } {
  const namespaces = Array.from({ length: spec.namespaces }, (_, k) => `app-${k + 1}`);
  const objects: KubeObject[] = [];
  let endpointIndex = 0;
  for (let i = 1; i <= spec.count; i += 1) {
    const name = `svc-${i}`;
    const namespace = namespaces[(i - 1) % namespaces.length] ?? 'default';
    const nodePort = spec.nodePortEvery > 0 && i % spec.nodePortEvery === 0;
    const uid = stableUid(`service/${namespace}/${name}`);
    objects.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace, uid, labels: { app: name } },
      spec: {
        type: nodePort ? 'NodePort' : 'ClusterIP',
        selector: { app: name },
        ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }],
      },
    });
    const endpoints = Array.from({ length: spec.endpointsPerService }, () => {
      endpointIndex += 1;
      const nodeName =
        nodeNames.length > 0 ? nodeNames[endpointIndex % nodeNames.length] : undefined;
      const endpoint: KubeObject[string] = {
        addresses: [ip(podBase, 256 + endpointIndex)],
        conditions: { ready: true, serving: true, terminating: false },
        ...(nodeName === undefined ? {} : { nodeName }),
      };
      return endpoint;
    });
    objects.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: `${name}-${uid.slice(0, 5)}`,
        namespace,
        generateName: `${name}-`,
        labels: {
          'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
          'kubernetes.io/service-name': name,
        },
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'Service',
            name,
            uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      addressType: 'IPv4',
      endpoints: endpoints as KubeObject[string],
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    });
  }
  return { namespaces, objects };
}
