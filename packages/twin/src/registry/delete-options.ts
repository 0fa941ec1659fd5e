// metav1.DeleteOptions as the registry takes them: the fields of a DeleteOptions object (a DELETE
// body, or an Eviction's deleteOptions), and ValidateDeleteOptions (apimachinery
// pkg/apis/meta/v1/validation) worded as the delete handler wraps it.

import { fieldError, invalidObject, type FieldError } from '../apimachinery/field-errors.js';
import type { JsonObject } from '../apimachinery/types.js';
import { asRecord } from '../apimachinery/types.js';
import type { PropagationPolicy } from './deletion.js';
import type { DeleteOptions } from './registry.js';

const policies: readonly PropagationPolicy[] = ['Foreground', 'Background', 'Orphan'];

/** The JSON fields of a DeleteOptions object, however it arrived. */
export function deleteOptionsFromObject(
  body: JsonObject,
): DeleteOptions & { dryRunValues: string[] } {
  const preconditions = asRecord(body['preconditions']);
  const dryRun = Array.isArray(body['dryRun'])
    ? body['dryRun'].filter((v): v is string => typeof v === 'string')
    : [];
  const grace = body['gracePeriodSeconds'];
  const policy = body['propagationPolicy'];
  const orphan = body['orphanDependents'];
  return {
    dryRun: dryRun.length > 0,
    dryRunValues: dryRun,
    gracePeriodSeconds: typeof grace === 'number' ? grace : undefined,
    expectedRv:
      typeof preconditions['resourceVersion'] === 'string'
        ? preconditions['resourceVersion']
        : undefined,
    expectedUid: typeof preconditions['uid'] === 'string' ? preconditions['uid'] : undefined,
    propagationPolicy: typeof policy === 'string' ? (policy as PropagationPolicy) : undefined,
    orphanDependents: typeof orphan === 'boolean' ? orphan : undefined,
  };
}

/** ValidateDeleteOptions, worded and wrapped as the handler does (`DeleteOptions.meta.k8s.io ""`). */
export function validateDeleteOptions(options: DeleteOptions, dryRun: readonly string[]): void {
  const errors: FieldError[] = [];
  const policy = options.propagationPolicy;
  if (options.orphanDependents !== undefined && policy !== undefined) {
    errors.push(
      fieldError.invalid(
        'propagationPolicy',
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  if (policy !== undefined && !policies.includes(policy)) {
    errors.push(fieldError.notSupported('propagationPolicy', policy, [...policies, 'nil']));
  }
  if (dryRun.some((v) => v !== 'All')) {
    // The bad value is a []string, which field.Error prints with %#v.
    const shown = `[]string{${dryRun.map((v) => JSON.stringify(v)).join(', ')}}`;
    errors.push({
      type: 'FieldValueNotSupported',
      field: 'dryRun',
      body: `Unsupported value: ${shown}: supported values: "All"`,
    });
  }
  if (errors.length > 0) throw invalidObject('DeleteOptions', 'meta.k8s.io', '', errors);
}
