// The defaults the scenario contract promises (TWIN.md): namespaced objects land in `default`,
// referenced namespaces exist, Nodes are Ready, listed Pods run, DaemonSet pods are left to the
// DaemonSet controller.

import { findByKind } from '../registry/resources.js';
import type { ScenarioHeader } from './schema.js';
import type { JsonObject, KubeObject } from '../apimachinery/types.js';
import { asArray, asRecord } from '../apimachinery/types.js';

const builtinNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function defaultNodeStatus(node: KubeObject, header: ScenarioHeader): void {
  const status = asRecord(node['status']);
  node['status'] = status;
  const conditions = asArray(status['conditions']);
  const since = node.metadata.creationTimestamp ?? '2025-01-01T00:00:00Z';
  const condition = (
    type: string,
    healthy: boolean,
    reason: string,
    message: string,
  ): JsonObject => ({
    type,
    status: healthy ? 'True' : 'False',
    lastHeartbeatTime: since,
    lastTransitionTime: since,
    reason,
    message,
  });
  if (conditions.length === 0) {
    status['conditions'] = [
      condition(
        'MemoryPressure',
        false,
        'KubeletHasSufficientMemory',
        'kubelet has sufficient memory available',
      ),
      condition('DiskPressure', false, 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      condition(
        'PIDPressure',
        false,
        'KubeletHasSufficientPID',
        'kubelet has sufficient PID available',
      ),
      condition('Ready', true, 'KubeletReady', 'kubelet is posting ready status'),
    ];
  } else if (!conditions.some((c) => asRecord(c)['type'] === 'Ready')) {
    status['conditions'] = [
      ...conditions,
      condition('Ready', true, 'KubeletReady', 'kubelet is posting ready status'),
    ] as JsonObject[];
  }
  const info = asRecord(status['nodeInfo']);
  status['nodeInfo'] = {
    operatingSystem: 'linux',
    architecture: 'amd64',
    kubeletVersion: header.spec.kubernetesVersion,
    ...info,
  };
  const name = node.metadata.name ?? '';
  node.metadata.labels = {
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    ...node.metadata.labels,
  };
}

/** Applies the defaults TWIN.md promises; returns the objects to load, namespaces first. */
export function applyScenarioDefaults(
  objects: readonly KubeObject[],
  header: ScenarioHeader,
  warnings: string[],
): KubeObject[] {
  const kept: KubeObject[] = [];
  const namespaces = new Set<string>(builtinNamespaces);
  const declared = new Set<string>();
  for (const obj of objects) {
    const def = findByKind(obj.apiVersion, obj.kind);
    if (!def) continue;
    if (
      obj.kind === 'Pod' &&
      asArray(obj.metadata.ownerReferences).some((o) => asRecord(o)['kind'] === 'DaemonSet')
    ) {
      warnings.push(
        `skipped pod ${obj.metadata.namespace ?? 'default'}/${obj.metadata.name ?? ''}: DaemonSet pods are created by the DaemonSet controller`,
      );
      continue;
    }
    if (def.namespaced) {
      obj.metadata.namespace ??= 'default';
      namespaces.add(obj.metadata.namespace);
    } else {
      delete obj.metadata.namespace;
    }
    if (obj.kind === 'Namespace') declared.add(obj.metadata.name ?? '');
    if (obj.kind === 'Node') defaultNodeStatus(obj, header);
    if (obj.kind === 'Pod') {
      const status = asRecord(obj['status']);
      status['phase'] ??= 'Running';
      obj['status'] = status;
    }
    kept.push(obj);
  }
  // Namespaces the file only implies are as old as the oldest object, not as old as the twin.
  const oldest = kept
    .map((o) => o.metadata.creationTimestamp)
    .filter((t): t is string => typeof t === 'string')
    .sort()[0];
  for (const ns of namespaces) {
    if (declared.has(ns)) continue;
    const metadata: KubeObject['metadata'] = { name: ns };
    if (oldest) metadata.creationTimestamp = oldest;
    kept.unshift({ apiVersion: 'v1', kind: 'Namespace', metadata });
  }
  return kept;
}
