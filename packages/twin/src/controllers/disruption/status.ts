// The PodDisruptionBudget status the disruption controller writes: updatePdbStatus, which skips
// a write when nothing changed, and failSafe after a failed sync.

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asNumber, asRecord, deepEqual } from '../../apimachinery/types.js';
import {
  conditionList,
  orderedStatus,
  setCondition,
  withAllowedCondition,
} from '../../registry/policy/budget-status.js';

export interface BudgetCounts {
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  disruptedPods: Record<string, string>;
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
  return orderedStatus(withAllowedCondition(base, now));
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
  return orderedStatus({ ...old, disruptionsAllowed: 0, conditions });
}
