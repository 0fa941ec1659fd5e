// Small, explicit cluster objects for the node-model tests: Nodes, a ClusterIP and a NodePort
// Service with EndpointSlices, and kubeadm-style kube-proxy ConfigMap + Pod for any mode.

import { ClusterDataplane } from '../../../src/node/index.js';
import type { HostSpec } from '../../../src/scenario/schema.js';
import type { KubeObject } from '../../../src/apimachinery/types.js';

export const t0 = Date.parse('2025-11-29T14:02:03Z');

export function node(
  name: string,
  ip: string,
  kernel = '6.8.0-51-generic',
  extra: Partial<{ labels: Record<string, string>; ready: boolean; cpu: string }> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } },
    status: {
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: name },
      ],
      capacity: { cpu: extra.cpu ?? '4' },
      conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }],
      nodeInfo: { kernelVersion: kernel, kubeletVersion: 'v1.33.4' },
    },
  };
}

export function service(
  name: string,
  clusterIP: string,
  port: number,
  opts: { nodePort?: number; ns?: string; portName?: string; protocol?: string } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: opts.ns ?? 'default' },
    spec: {
      type: opts.nodePort === undefined ? 'ClusterIP' : 'NodePort',
      clusterIP,
      clusterIPs: [clusterIP],
      ports: [
        {
          name: opts.portName ?? 'http',
          port,
          protocol: opts.protocol ?? 'TCP',
          targetPort: 8080,
          ...(opts.nodePort === undefined ? {} : { nodePort: opts.nodePort }),
        },
      ],
    },
  };
}

export function slice(
  svc: string,
  endpoints: { ip: string; node: string; ready?: boolean; pod?: string }[],
  opts: { ns?: string; portName?: string; port?: number; protocol?: string } = {},
): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${svc}-abcde`,
      namespace: opts.ns ?? 'default',
      labels: { 'kubernetes.io/service-name': svc },
    },
    addressType: 'IPv4',
    endpoints: endpoints.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready ?? true },
      nodeName: e.node,
      targetRef: { kind: 'Pod', name: e.pod ?? `${svc}-${e.ip.split('.').pop() ?? ''}` },
    })),
    ports: [
      { name: opts.portName ?? 'http', port: opts.port ?? 8080, protocol: opts.protocol ?? 'TCP' },
    ],
  };
}

export function kubeProxyConfigMap(configConf: string, name = 'kube-proxy'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'kube-system' },
    data: { 'config.conf': configConf },
  };
}

export function configText(mode: string, extra = ''): string {
  return `apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clusterCIDR: 10.244.0.0/16
mode: "${mode}"
${extra}`;
}

export interface PodOptions {
  readonly version?: string;
  readonly args?: readonly string[];
  readonly env?: readonly { name: string; value: string }[];
  readonly noConfig?: boolean;
  readonly annotations?: Record<string, string>;
  readonly configMap?: string;
}

export function kubeProxyPod(nodeName: string, o: PodOptions = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `kube-proxy-${nodeName}`,
      namespace: 'kube-system',
      annotations: o.annotations ?? {},
    },
    spec: {
      nodeName,
      hostNetwork: true,
      containers: [
        {
          name: 'kube-proxy',
          image: `registry.k8s.io/kube-proxy:${o.version ?? 'v1.33.4'}`,
          command: [
            '/usr/local/bin/kube-proxy',
            ...(o.noConfig ? [] : ['--config=/var/lib/kube-proxy/config.conf']),
            '--hostname-override=$(NODE_NAME)',
            ...(o.args ?? []),
          ],
          env: [
            { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
            ...(o.env ?? []),
          ],
          volumeMounts: [{ mountPath: '/var/lib/kube-proxy', name: 'kube-proxy' }],
        },
      ],
      volumes: [{ name: 'kube-proxy', configMap: { name: o.configMap ?? 'kube-proxy' } }],
    },
  };
}

/** Three nodes: a (6.8), b (6.8, secondary 192.168.50.21), old (5.4); web + web-nodeport. */
export function cluster(hosts: HostSpec[] = [], kubernetesVersion = 'v1.33.4'): ClusterDataplane {
  const model = new ClusterDataplane({
    kubernetesVersion,
    hosts: [
      { match: '*', nft: '1.0.6' },
      { match: 'b', addresses: ['10.0.1.21', '192.168.50.21'] },
      ...hosts,
    ],
  });
  model.setNode(node('a', '10.0.1.11'));
  model.setNode(node('b', '10.0.1.21'));
  model.setNode(node('old', '10.0.1.31', '5.4.0-80-generic'));
  model.resync(
    [
      service('web', '10.96.10.10', 80),
      service('web-nodeport', '10.96.20.20', 80, { nodePort: 31080 }),
    ],
    [
      slice('web', [
        { ip: '10.244.1.5', node: 'a' },
        { ip: '10.244.2.5', node: 'b' },
      ]),
      slice('web-nodeport', [
        { ip: '10.244.1.5', node: 'a' },
        { ip: '10.244.2.5', node: 'b' },
      ]),
    ],
    t0,
  );
  return model;
}

/** Starts kube-proxy on every given node with one ConfigMap text. */
export function startAll(
  model: ClusterDataplane,
  nodes: readonly string[],
  conf: string,
  o: PodOptions = {},
  now = t0,
): void {
  for (const n of nodes) model.podStarted(n, kubeProxyPod(n, o), [kubeProxyConfigMap(conf)], now);
}

export function sh(
  model: ClusterDataplane,
  nodeName: string,
  line: string,
  now = t0 + 1000,
): { exitCode: number; stdout: string; stderr: string } {
  return model.exec(nodeName, ['sh', '-c', line], now);
}
