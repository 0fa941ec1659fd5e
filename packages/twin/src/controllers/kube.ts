// Small readers shared by the controllers: resource rows, conditions, owner references and the
// pod predicates (ready, available, terminal) that kube's podutil defines.

import { resourceFor } from '../registry/resources.js';
import type { JsonObject, KubeObject } from '../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../apimachinery/types.js';

export const podsDef = resourceFor('pods');
export const nodesDef = resourceFor('nodes');
export const daemonSetsDef = resourceFor('daemonsets');
export const revisionsDef = resourceFor('controllerrevisions');
export const eventsDef = resourceFor('events');

export const revisionHashLabel = 'controller-revision-hash';
export const templateGenerationLabel = 'pod-template-generation';
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

export function spec(obj: KubeObject): JsonObject {
  return asRecord(obj['spec']);
}

export function status(obj: KubeObject): JsonObject {
  return asRecord(obj['status']);
}

export function conditions(obj: KubeObject): JsonObject[] {
  return asArray(status(obj)['conditions']).filter(isJsonObject);
}

export function condition(obj: KubeObject, type: string): JsonObject | undefined {
  return conditions(obj).find((c) => c['type'] === type);
}

/** Replaces one condition, keeping lastTransitionTime when the status did not change. */
export function withCondition(
  list: readonly JsonObject[],
  next: JsonObject & { type: string; status: string },
  now: string,
): JsonObject[] {
  const old = list.find((c) => c['type'] === next.type);
  const since = old && old['status'] === next.status ? old['lastTransitionTime'] : now;
  const merged: JsonObject = { ...next, lastTransitionTime: since ?? now };
  return old ? list.map((c) => (c === old ? merged : c)) : [...list, merged];
}

export function nodeName(pod: KubeObject): string {
  return asString(spec(pod)['nodeName']);
}

export function isTerminating(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined;
}

export function isPodTerminal(pod: KubeObject): boolean {
  const phase = status(pod)['phase'];
  return phase === 'Succeeded' || phase === 'Failed';
}

export function isPodReady(pod: KubeObject): boolean {
  return condition(pod, 'Ready')?.['status'] === 'True';
}

/** podutil.IsPodAvailable: Ready for at least minReadySeconds. */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  const ready = condition(pod, 'Ready');
  if (ready?.['status'] !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(asString(ready['lastTransitionTime']));
  return !Number.isNaN(since) && since + minReadySeconds * 1000 <= now;
}

export function isNodeReady(node: KubeObject): boolean {
  return condition(node, 'Ready')?.['status'] === 'True';
}

export function controllerOf(obj: KubeObject): JsonObject | undefined {
  return asArray(obj.metadata.ownerReferences)
    .filter(isJsonObject)
    .find((ref) => ref['controller'] === true);
}

export function ownerReference(owner: KubeObject): JsonObject {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Oldest first, as podByCreationTimestampAndPhase sorts; names break ties deterministically. */
export function byCreation(a: KubeObject, b: KubeObject): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
