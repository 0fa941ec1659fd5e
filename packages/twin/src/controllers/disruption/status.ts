// The PodDisruptionBudget status the disruption controller writes (updatePdbStatus, failSafe)
// and the DisruptionAllowed condition (component-helpers/apps/poddisruptionbudget), in policy/v1
// field order, so that `kubectl get pdb -o yaml` reads as on a cluster.

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asNumber, asRecord, deepEqual, isJsonObject } from '../../apimachinery/types.js';

export interface BudgetCounts {
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  disruptedPods: Record<string, string>;
}

function conditionList(status: JsonObject): JsonObject[] {
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
function ordered(status: JsonObject): JsonObject {
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

/** updatePdbStatus: undefined when the stored status is already up to date. */
export function nextStatus(
  pdb: KubeObject,
  counts: BudgetCounts,
  now: string,
): JsonObject | undefined {
  const old = asRecord(pdb['status']);
  const generation = pdb.metadata.generation ?? 0;
  let allowed = counts.currentHealthy - counts.desiredHealthy;
  if (counts.expectedPods <= 0 || allowed <= 0) allowed = 0;
  const base: JsonObject = {
    observedGeneration: generation,
    disruptedPods: counts.disruptedPods,
    disruptionsAllowed: allowed,
    currentHealthy: counts.currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedPods,
    conditions: conditionList(old),
  };
  const condition = conditionList(old).find((c) => c['type'] === 'DisruptionAllowed');
  const upToDate =
    asNumber(old['currentHealthy']) === counts.currentHealthy &&
    asNumber(old['desiredHealthy']) === counts.desiredHealthy &&
    asNumber(old['expectedPods']) === counts.expectedPods &&
    asNumber(old['disruptionsAllowed']) === allowed &&
    deepEqual(asRecord(old['disruptedPods']), counts.disruptedPods) &&
    asNumber(old['observedGeneration']) === generation &&
    condition !== undefined &&
    condition['status'] === (allowed > 0 ? 'True' : 'False') &&
    condition['reason'] === (allowed > 0 ? 'SufficientPods' : 'InsufficientPods');
  if (upToDate) return undefined;
  return ordered(withAllowedCondition(base, now));
}

/** failSafe: no disruptions allowed, and a SyncFailed condition carrying the error. */
export function failSafeStatus(pdb: KubeObject, error: string, now: string): JsonObject {
  const old = asRecord(pdb['status']);
  const conditions = setCondition(
    conditionList(old),
    {
      type: 'DisruptionAllowed',
      status: 'False',
      reason: 'SyncFailed',
      message: error,
      observedGeneration: asNumber(old['observedGeneration']),
    },
    now,
  );
  return ordered({ ...old, disruptionsAllowed: 0, conditions });
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
  return ordered(status);
}
