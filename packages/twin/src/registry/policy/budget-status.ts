// What the apiserver's eviction handler and the disruption controller share about a budget
// (k8s.io/component-helpers/apps/poddisruptionbudget): which pods it selects, the
// DisruptionAllowed condition, and the status in policy/v1 field order, so that
// `kubectl get pdb -o yaml` reads as on a cluster.

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asNumber, asRecord, isJsonObject } from '../../apimachinery/types.js';
import { fromLabelSelectorObject, matchesLabels } from '../../apimachinery/label-selector.js';

/** How long an eviction the apiserver approved keeps the pod out of currentHealthy. */
export const deletionTimeoutMs = 2 * 60 * 1000;

/** metav1.LabelSelectorAsSelector: a nil selector selects nothing, an empty one everything. */
export function pdbSelects(pdb: KubeObject, pod: KubeObject): boolean {
  if (pod.metadata.namespace !== pdb.metadata.namespace) return false;
  const selector = asRecord(pdb['spec'])['selector'];
  if (!isJsonObject(selector)) return false;
  return matchesLabels(fromLabelSelectorObject(selector), pod.metadata.labels);
}

export function conditionList(status: JsonObject): JsonObject[] {
  return asArray(status['conditions']).filter(isJsonObject);
}

/** apimeta.SetStatusCondition: lastTransitionTime moves only when the status changes. */
export function setCondition(
  list: readonly JsonObject[],
  next: {
    type: string;
    status: string;
    reason: string;
    message: string;
    observedGeneration: number;
  },
  now: string,
): JsonObject[] {
  const old = list.find((c) => c['type'] === next.type);
  const since = old && old['status'] === next.status ? old['lastTransitionTime'] : now;
  const condition: JsonObject = { type: next.type, status: next.status };
  if (next.observedGeneration !== 0) condition['observedGeneration'] = next.observedGeneration;
  condition['lastTransitionTime'] = since ?? now;
  condition['reason'] = next.reason;
  condition['message'] = next.message;
  return old ? list.map((c) => (c === old ? condition : c)) : [...list, condition];
}

/** UpdateDisruptionAllowedCondition. */
export function withAllowedCondition(status: JsonObject, now: string): JsonObject {
  const allowed = asNumber(status['disruptionsAllowed']) > 0;
  const conditions = setCondition(
    conditionList(status),
    {
      type: 'DisruptionAllowed',
      status: allowed ? 'True' : 'False',
      reason: allowed ? 'SufficientPods' : 'InsufficientPods',
      message: '',
      observedGeneration: asNumber(status['observedGeneration']),
    },
    now,
  );
  return { ...status, conditions };
}

/** The status in PodDisruptionBudgetStatus field order; disruptedPods is omitempty. */
export function orderedStatus(status: JsonObject): JsonObject {
  const out: JsonObject = {};
  const observed = asNumber(status['observedGeneration']);
  if (observed !== 0) out['observedGeneration'] = observed;
  const disrupted = asRecord(status['disruptedPods']);
  if (Object.keys(disrupted).length > 0) out['disruptedPods'] = disrupted;
  for (const key of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'])
    out[key] = asNumber(status[key]);
  const conditions = status['conditions'];
  if (Array.isArray(conditions)) out['conditions'] = conditions;
  return out;
}

/** The eviction's checkAndDecrement: one fewer allowed, and the pod recorded as disrupted. */
export function decremented(
  pdb: KubeObject,
  pod: string,
  now: string,
  dryRun: boolean,
): JsonObject {
  let status: JsonObject = { ...asRecord(pdb['status']) };
  status['disruptionsAllowed'] = asNumber(status['disruptionsAllowed']) - 1;
  if (status['disruptionsAllowed'] === 0) status = withAllowedCondition(status, now);
  if (!dryRun) status['disruptedPods'] = { ...asRecord(status['disruptedPods']), [pod]: now };
  return orderedStatus(status);
}
