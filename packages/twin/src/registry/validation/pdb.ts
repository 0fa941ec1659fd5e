// PodDisruptionBudget validation (pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec and
// ...StatusUpdate), with the shared apimachinery checks it calls: ValidatePositiveIntOrPercent and
// IsNotMoreThan100Percent (int-or-percent.ts) and ValidateLabelSelector (label-selector.ts).

import type { FieldError } from '../../apimachinery/field-errors.js';
import { fieldError } from '../../apimachinery/field-errors.js';
import type { JsonObject, JsonValue } from '../../apimachinery/types.js';
import { isJsonObject } from '../../apimachinery/types.js';
import { notMoreThan100Percent, validatePositiveIntOrPercent } from './int-or-percent.js';
import { validateLabelSelector } from './label-selector.js';

function invalidShown(field: string, shown: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, body: `Invalid value: ${shown}: ${detail}` };
}

/** ValidatePositiveIntOrPercent then IsNotMoreThan100Percent, as the spec validation calls them. */
function validateIntOrPercent(value: JsonValue, path: string): FieldError[] {
  return [...validatePositiveIntOrPercent(value, path), ...notMoreThan100Percent(value, path)];
}

/** Stand-ins for the pointers %#v prints: real addresses differ on every request anyway. */
function pointer(type: string, present: boolean, address: string): string {
  return `(*${type})(${present ? address : 'nil'})`;
}

export function validatePdbSpec(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const min = spec['minAvailable'];
  const max = spec['maxUnavailable'];
  if (min !== undefined && min !== null && max !== undefined && max !== null) {
    const shown =
      'policy.PodDisruptionBudgetSpec{' +
      `MinAvailable:${pointer('intstr.IntOrString', true, '0xc000a1e0a0')}, ` +
      `Selector:${pointer('v1.LabelSelector', isJsonObject(spec['selector']), '0xc000a1e0c0')}, ` +
      `MaxUnavailable:${pointer('intstr.IntOrString', true, '0xc000a1e0b0')}, ` +
      `UnhealthyPodEvictionPolicy:${pointer('policy.UnhealthyPodEvictionPolicyType', typeof spec['unhealthyPodEvictionPolicy'] === 'string', '0xc000a1e0d0')}}`;
    errs.push(invalidShown('spec', shown, 'minAvailable and maxUnavailable cannot be both set'));
  }
  if (min !== undefined && min !== null)
    errs.push(...validateIntOrPercent(min, 'spec.minAvailable'));
  if (max !== undefined && max !== null)
    errs.push(...validateIntOrPercent(max, 'spec.maxUnavailable'));
  errs.push(...validateLabelSelector(spec['selector'], 'spec.selector'));
  const policy = spec['unhealthyPodEvictionPolicy'];
  if (
    policy !== undefined &&
    policy !== null &&
    policy !== 'IfHealthyBudget' &&
    policy !== 'AlwaysAllow'
  )
    errs.push(
      fieldError.notSupported('spec.unhealthyPodEvictionPolicy', policy, [
        'AlwaysAllow',
        'IfHealthyBudget',
      ]),
    );
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate for policy/v1: counters may not go negative. */
export function validatePdbStatus(status: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) {
    const v = status[key];
    if (typeof v === 'number' && v < 0)
      errs.push(fieldError.invalid(`status.${key}`, v, 'must be greater than or equal to 0'));
  }
  return errs;
}
