// metav1.DeleteOptions as the apiserver's delete handler reads them (endpoints/handlers/delete.go):
// from the body when there is one (JSON, YAML or client-go's protobuf), else from the query, then
// checked by ValidateDeleteOptions before anything is deleted.

import { badRequest } from '../../apimachinery/errors.js';
import type { JsonObject } from '../../apimachinery/types.js';
import { asRecord } from '../../apimachinery/types.js';
import { deleteOptionsFromObject, validateDeleteOptions } from '../../registry/delete-options.js';
import type { DeleteOptions, PropagationPolicy } from '../../registry/registry.js';
import { queryInt } from '../http-util.js';

function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  // The parameter codec parses booleans with strconv.ParseBool.
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw badRequest(`strconv.ParseBool: parsing "${v}": invalid syntax`);
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
