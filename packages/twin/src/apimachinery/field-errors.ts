// Field errors as k8s.io/apimachinery/pkg/util/validation/field words them, and the 422 Invalid
// Status an ErrorList becomes (apierrors.NewInvalid): one cause per error, with its field path.

import { ApiError } from './errors.js';
import { GoValue } from './go-value.js';

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueNotFound'
  | 'FieldValueTypeInvalid';

export interface FieldError {
  type: FieldErrorType;
  /** The field path, e.g. `spec.template.spec.containers[0].name`. */
  field: string;
  /** The error body as ErrorBody() prints it, e.g. `Required value` or `Invalid value: "x": …`. */
  body: string;
}

/** How field.Error prints a bad value: strings quoted, numbers and booleans bare, Go values as rendered. */
function show(value: unknown): string {
  if (value instanceof GoValue) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value);
}

function withDetail(head: string, detail: string | undefined): string {
  return detail === undefined || detail === '' ? head : `${head}: ${detail}`;
}

export const fieldError = {
  required: (field: string, detail?: string): FieldError => ({
    type: 'FieldValueRequired',
    field,
    body: withDetail('Required value', detail),
  }),
  invalid: (field: string, value: unknown, detail?: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    body: withDetail(`Invalid value: ${show(value)}`, detail),
  }),
  notSupported: (field: string, value: unknown, valid: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    body: `Unsupported value: ${show(value)}${valid.length > 0 ? `: supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : ''}`,
  }),
  forbidden: (field: string, detail: string): FieldError => ({
    type: 'FieldValueForbidden',
    field,
    body: withDetail('Forbidden', detail),
  }),
  duplicate: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueDuplicate',
    field,
    body: `Duplicate value: ${show(value)}`,
  }),
  tooLong: (field: string, maxLength: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    body: `Too long: may not be more than ${maxLength} bytes`,
  }),
  notFound: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueNotFound',
    field,
    body: `Not found: ${show(value)}`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    body: `Too many: ${actual}: must have at most ${max} items`,
  }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field,
    body: withDetail(`Invalid value: ${show(value)}`, detail),
  }),
} as const;

/**
 * apierrors.NewInvalid: `DaemonSet.apps "x" is invalid: spec.selector: Required value`, or
 * `… is invalid: [a: …, b: …]` for several errors. Every error is a cause, duplicates included,
 * but the message lists each distinct text once (ErrorList.ToAggregate dedups).
 */
export function invalidObject(
  kind: string,
  group: string,
  name: string,
  errors: readonly FieldError[],
): ApiError {
  const qualifiedKind = group === '' ? kind : `${kind}.${group}`;
  const parts = [...new Set(errors.map((e) => `${e.field}: ${e.body}`))];
  const list = parts.length === 1 ? (parts[0] ?? '') : `[${parts.join(', ')}]`;
  return new ApiError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${list}`, {
    name,
    ...(group === '' ? {} : { group }),
    kind,
    causes: errors.map((e) => ({ reason: e.type, message: e.body, field: e.field })),
  });
}
