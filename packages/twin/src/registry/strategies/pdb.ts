// PodDisruptionBudget strategy (pkg/registry/policy/poddisruptionbudget/strategy.go): create
// resets status to the zero PodDisruptionBudgetStatus (whose counters are not omitempty), the
// spec is validated on create and update, the status strategy validates only the status
// (ValidatePodDisruptionBudgetStatusUpdate), and a PUT must carry a resourceVersion.

import type { JsonObject } from '../../apimachinery/types.js';
import { asRecord } from '../../apimachinery/types.js';
import type { ResourceStrategy } from '../strategy.js';
import { validatePdbSpec, validatePdbStatus } from '../validation/pdb.js';

/** policy/v1 PodDisruptionBudgetStatus{} as JSON: the four counters are always serialized. */
export function emptyPdbStatus(): JsonObject {
  return { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
}

export const pdbStrategy: ResourceStrategy = {
  prepareForCreate(obj) {
    obj['status'] = emptyPdbStatus();
  },
  // ValidatePodDisruptionBudget checks the spec only; ObjectMeta is the registry's generic rule.
  validate: (obj) => validatePdbSpec(asRecord(obj['spec'])),
  validateUpdate: (obj) => validatePdbSpec(asRecord(obj['spec'])),
  validateStatusUpdate: (obj) => validatePdbStatus(asRecord(obj['status'])),
  allowUnconditionalUpdate: false,
};
