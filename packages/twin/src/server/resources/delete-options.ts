// metav1.DeleteOptions as the apiserver's delete handler reads them (endpoints/handlers/delete.go):
// from the body when there is one (JSON, YAML or client-go's protobuf), else from the query, then
// checked by ValidateDeleteOptions (apimachinery meta/v1/validation) before anything is deleted.

import { badRequest } from '../../apimachinery/errors.js';
import { fieldError, invalidObject, type FieldError } from '../../apimachinery/field-errors.js';
import type { JsonObject } from '../../apimachinery/types.js';
import { asRecord } from '../../apimachinery/types.js';
import type { DeleteOptions, PropagationPolicy } from '../../registry/registry.js';
import { queryInt } from '../http-util.js';

const policies: readonly PropagationPolicy[] = ['Foreground', 'Background', 'Orphan'];

function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  // The parameter codec parses booleans with strconv.ParseBool.
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw badRequest(`strconv.ParseBool: parsing "${v}": invalid syntax`);
}

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

/** The body (decoded) wins when there is one: the query is read only for a bodiless DELETE. */
export function parseDeleteOptions(
  body: JsonObject | undefined,
  query: URLSearchParams,
): DeleteOptions {
  let parsed: DeleteOptions & { dryRunValues: string[] };
  if (body !== undefined) {
    parsed = deleteOptionsFromObject(asRecord(body));
  } else {
    const dryRun = query.getAll('dryRun');
    const policy = query.get('propagationPolicy');
    parsed = {
      dryRun: dryRun.length > 0,
      dryRunValues: dryRun,
      gracePeriodSeconds: queryInt(query, 'gracePeriodSeconds'),
      propagationPolicy: policy === null ? undefined : (policy as PropagationPolicy),
      orphanDependents: queryBool(query, 'orphanDependents'),
    };
  }
  const { dryRunValues, ...options } = parsed;
  validateDeleteOptions(options, dryRunValues);
  return options;
}
