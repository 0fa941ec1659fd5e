// The disruption controller's arithmetic (pkg/controller/disruption/disruption.go): which pods a
// budget selects, how many it expects (getExpectedPodCount / getExpectedScale with the finders the
// twin can answer), which recent evictions still count (buildDisruptedPodMap, DeletionTimeout
// 2 min), how many are healthy, and the status with its DisruptionAllowed condition.

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asNumber, asRecord, asString } from '../../apimachinery/types.js';
import { deletionTimeoutMs } from '../../registry/policy/budget-status.js';
import { findByKind } from '../../registry/resources.js';
import type { ObjectStore } from '../../store/store.js';
import { controllerOf, isPodReady } from '../kube.js';

/** intstr.GetScaledValueFromIntOrPercent with roundUp. */
function scaled(value: unknown, total: number): number {
  if (typeof value === 'number') return value;
  const percent = Number(asString(value).replace(/%$/, ''));
  return Math.ceil((percent * total) / 100);
}

/** One finder answer: the controller's uid and scale, or the error sync fails with. */
type Scale = { uid: string; scale: number } | { error: string } | undefined;

/**
 * The finders: ReplicationControllers, ReplicaSets and StatefulSets are not served (the RESTMapper
 * would not know the kind), a Deployment's scale is spec.replicas, and every other served kind
 * has no scale subresource.
 */
function findScale(store: ObjectStore, ref: JsonObject, namespace: string): Scale {
  const apiVersion = asString(ref['apiVersion']);
  const kind = asString(ref['kind']);
  const def = findByKind(apiVersion, kind);
  if (!def) {
    const version = apiVersion.includes('/') ? apiVersion : apiVersion === '' ? 'v1' : apiVersion;
    return { error: `no matches for kind "${kind}" in version "${version}"` };
  }
  if (def.plural !== 'deployments') {
    const resource = def.group === '' ? def.plural : `${def.plural}.${def.group}`;
    return { error: `${resource} does not implement the scale subresource` };
  }
  const deployment = store.get(def, namespace, asString(ref['name']));
  if (!deployment || deployment.metadata.uid !== ref['uid']) return undefined;
  return {
    uid: deployment.metadata.uid ?? '',
    scale: asNumber(asRecord(deployment['spec'])['replicas'], 1),
  };
}

export interface Expected {
  expectedCount: number;
  desiredHealthy: number;
  unmanaged: string[];
}

/** getExpectedPodCount; an error string is what trySync fails with. */
export function expectedPods(
  store: ObjectStore,
  pdb: KubeObject,
  pods: readonly KubeObject[],
): Expected | { error: string } {
  const spec = asRecord(pdb['spec']);
  const max = spec['maxUnavailable'] ?? undefined;
  const min = spec['minAvailable'] ?? undefined;
  if (typeof min === 'number' && max === undefined) {
    return { expectedCount: pods.length, desiredHealthy: min, unmanaged: [] };
  }
  if (max === undefined && min === undefined) {
    return { expectedCount: 0, desiredHealthy: 0, unmanaged: [] };
  }
  const scales = new Map<string, number>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) {
      unmanaged.push(pod.metadata.name ?? '');
      continue;
    }
    if (scales.has(asString(ref['uid']))) continue;
    const found = findScale(store, ref, pod.metadata.namespace ?? '');
    if (found && 'error' in found) return found;
    if (!found) return { error: `found no controllers for pod "${pod.metadata.name ?? ''}"` };
    scales.set(found.uid, found.scale);
  }
  const expectedCount = [...scales.values()].reduce((a, b) => a + b, 0);
  if (max !== undefined) {
    const desired = expectedCount - scaled(max, expectedCount);
    return { expectedCount, desiredHealthy: Math.max(0, desired), unmanaged };
  }
  return { expectedCount, desiredHealthy: scaled(min, expectedCount), unmanaged };
}

/** buildDisruptedPodMap: evictions not yet seen as deletions, and when the next one expires. */
export function disruptedPods(
  pdb: KubeObject,
  pods: readonly KubeObject[],
  now: number,
): { map: Record<string, string>; recheckAt: number | undefined; expired: KubeObject[] } {
  const recorded = asRecord(asRecord(pdb['status'])['disruptedPods']);
  const map: Record<string, string> = {};
  const expired: KubeObject[] = [];
  let recheckAt: number | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const name = pod.metadata.name ?? '';
    const at = Date.parse(asString(recorded[name]));
    if (Number.isNaN(at)) continue;
    const expires = at + deletionTimeoutMs;
    // At the very instant of expiry the real controller requeues with no delay and expires it a
    // moment later; on a manual clock that moment never comes, so equality counts as expired.
    if (expires <= now) {
      expired.push(pod);
      continue;
    }
    if (recheckAt === undefined || expires < recheckAt) recheckAt = expires;
    map[name] = asString(recorded[name]);
  }
  return { map, recheckAt, expired };
}

/** countHealthyPods: Ready, not terminating, not just evicted. */
export function healthyPods(
  pods: readonly KubeObject[],
  disrupted: Readonly<Record<string, string>>,
  now: number,
): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const at = Date.parse(disrupted[pod.metadata.name ?? ''] ?? '');
    if (!Number.isNaN(at) && at + deletionTimeoutMs > now) continue;
    if (isPodReady(pod)) healthy += 1;
  }
  return healthy;
}
