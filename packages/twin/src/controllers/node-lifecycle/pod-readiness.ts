// Readiness of pods the twin's kubelet does not run (scenario pods): when their node turns
// NotReady the node lifecycle controller marks them not Ready (MarkPodsNotReady); when it
// recovers their kubelet reports them Ready again if their containers are.

import type { Registry } from '../../registry/registry.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, isJsonObject } from '../../apimachinery/types.js';
import { conditions, podsDef, status, withCondition } from '../kube.js';
import { controllerManager } from '../managers.js';

function containersReady(pod: KubeObject): boolean {
  const statuses = asArray(status(pod)['containerStatuses']).filter(isJsonObject);
  if (statuses.length === 0) return status(pod)['phase'] === 'Running';
  return statuses.every((c) => c['ready'] === true);
}

export function readyOnNode(
  registry: Registry,
  pod: KubeObject,
  nodeReady: boolean,
  now: string,
): void {
  if (pod.metadata.deletionTimestamp !== undefined || status(pod)['phase'] !== 'Running') return;
  const ready = nodeReady && containersReady(pod);
  const list = withCondition(
    conditions(pod),
    { type: 'Ready', status: ready ? 'True' : 'False' },
    now,
  );
  const next = { ...asRecord(pod['status']), conditions: list };
  registry.update(podsDef, { ...pod, status: next }, undefined, {
    subresource: 'status',
    manager: controllerManager,
  });
}
