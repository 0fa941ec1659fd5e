// API defaulting for the kinds the product reads closely: what the real apiserver fills in on
// create, so objects created through the twin look like `kubectl get -o yaml` on a real cluster.

import type { ServiceAllocator } from './allocator.js';
import type { JsonObject, KubeObject } from '../apimachinery/types.js';
import { asArray, asRecord, isJsonObject } from '../apimachinery/types.js';

function setDefault(obj: JsonObject, key: string, value: JsonObject[string]): void {
  if (obj[key] === undefined) obj[key] = value;
}

function child(obj: JsonObject, key: string): JsonObject {
  const existing = obj[key];
  if (isJsonObject(existing)) return existing;
  const created: JsonObject = {};
  obj[key] = created;
  return created;
}

function pullPolicy(image: unknown): string {
  const ref = typeof image === 'string' ? image : '';
  const lastSegment = ref.slice(ref.lastIndexOf('/') + 1);
  if (ref.includes('@')) return 'IfNotPresent';
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: JsonObject): void {
  setDefault(c, 'imagePullPolicy', pullPolicy(c['image']));
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  for (const port of asArray(c['ports']))
    if (isJsonObject(port)) setDefault(port, 'protocol', 'TCP');
  for (const env of asArray(c['env'])) {
    const fieldRef = asRecord(
      asRecord(isJsonObject(env) ? env['valueFrom'] : undefined)['fieldRef'],
    );
    if (fieldRef['fieldPath'] !== undefined) setDefault(fieldRef, 'apiVersion', 'v1');
  }
}

export function defaultPodSpec(spec: JsonObject): void {
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  for (const key of ['containers', 'initContainers']) {
    for (const c of asArray(spec[key])) if (isJsonObject(c)) defaultContainer(c);
  }
  for (const v of asArray(spec['volumes'])) {
    if (!isJsonObject(v)) continue;
    if (isJsonObject(v['configMap'])) setDefault(v['configMap'], 'defaultMode', 420);
    if (isJsonObject(v['secret'])) setDefault(v['secret'], 'defaultMode', 420);
    if (isJsonObject(v['hostPath'])) setDefault(v['hostPath'], 'type', '');
  }
}

/**
 * SetDefaults_Pod: with hostNetwork, an unset hostPort becomes the containerPort. Templates are
 * left alone (DefaultHostNetworkHostPortsInPodTemplates is off by default since 1.28).
 */
function defaultHostNetworkPorts(spec: JsonObject): void {
  if (spec['hostNetwork'] !== true) return;
  for (const key of ['containers', 'initContainers'])
    for (const c of asArray(spec[key]))
      for (const port of asArray(asRecord(c)['ports']))
        if (isJsonObject(port) && !port['hostPort']) port['hostPort'] = port['containerPort'] ?? 0;
}

function defaultService(svc: KubeObject, alloc: ServiceAllocator): void {
  const spec = child(svc as unknown as JsonObject, 'spec');
  setDefault(spec, 'type', 'ClusterIP');
  setDefault(spec, 'sessionAffinity', 'None');
  const type = spec['type'];
  if (type !== 'ExternalName') {
    if (spec['clusterIP'] === undefined || spec['clusterIP'] === '')
      spec['clusterIP'] = alloc.allocateIp();
    const ip = spec['clusterIP'];
    setDefault(spec, 'clusterIPs', [ip ?? '']);
    setDefault(spec, 'ipFamilies', ['IPv4']);
    setDefault(spec, 'ipFamilyPolicy', 'SingleStack');
    setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  }
  const wantsNodePort = type === 'NodePort' || type === 'LoadBalancer';
  if (wantsNodePort) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  for (const port of asArray(spec['ports'])) {
    if (!isJsonObject(port)) continue;
    setDefault(port, 'protocol', 'TCP');
    setDefault(port, 'targetPort', port['port'] ?? 0);
    if (wantsNodePort && port['nodePort'] === undefined)
      port['nodePort'] = alloc.allocateNodePort();
  }
  setDefault(svc as unknown as JsonObject, 'status', { loadBalancer: {} });
}

/** Fills what the apiserver would default; never overwrites a value the caller set. */
export function applyDefaults(obj: KubeObject, alloc: ServiceAllocator): void {
  const o = obj as unknown as JsonObject;
  switch (obj.kind) {
    case 'Namespace': {
      obj.metadata.labels = {
        ...obj.metadata.labels,
        'kubernetes.io/metadata.name': obj.metadata.name ?? '',
      };
      setDefault(child(o, 'spec'), 'finalizers', ['kubernetes']);
      setDefault(child(o, 'status'), 'phase', 'Active');
      break;
    }
    case 'Service':
      defaultService(obj, alloc);
      break;
    case 'Pod': {
      defaultHostNetworkPorts(child(o, 'spec'));
      defaultPodSpec(child(o, 'spec'));
      setDefault(child(o, 'status'), 'phase', 'Pending');
      break;
    }
    case 'DaemonSet': {
      const spec = child(o, 'spec');
      // SetDefaults_DaemonSet (apps/v1): RollingUpdate, and its limits 1 and 0 when unset.
      const strategy = child(spec, 'updateStrategy');
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy['type'] === 'RollingUpdate') {
        const rolling = child(strategy, 'rollingUpdate');
        setDefault(rolling, 'maxUnavailable', 1);
        setDefault(rolling, 'maxSurge', 0);
      }
      setDefault(spec, 'revisionHistoryLimit', 10);
      defaultPodSpec(child(child(spec, 'template'), 'spec'));
      break;
    }
    case 'Deployment': {
      const spec = child(o, 'spec');
      setDefault(spec, 'replicas', 1);
      setDefault(spec, 'strategy', {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
      });
      setDefault(spec, 'revisionHistoryLimit', 10);
      setDefault(spec, 'progressDeadlineSeconds', 600);
      defaultPodSpec(child(child(spec, 'template'), 'spec'));
      break;
    }
    default:
      break;
  }
}
