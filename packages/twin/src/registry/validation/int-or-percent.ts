// The IntOrString checks of pkg/apis/apps/validation that DaemonSet rolling updates and
// PodDisruptionBudgets share: ValidatePositiveIntOrPercent, IsNotMoreThan100Percent and
// getIntOrPercentValue, with field.Error's %#v rendering of an intstr.IntOrString.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { goIntOrString } from '../../apimachinery/go-value.js';
import { asString } from '../../apimachinery/types.js';
import { isValidPercent } from './names.js';
import { validateNonnegative } from './object-meta.js';

/** The percentage of an intstr, or undefined when it is an int or not a valid percent. */
function percentOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || isValidPercent(value).length > 0) return undefined;
  return Number(value.slice(0, -1));
}

/** getIntOrPercentValue: the percentage, else IntValue (a bad string counts as its Atoi, 0). */
export function intOrPercentValue(value: unknown): number {
  const pct = percentOf(value);
  if (pct !== undefined) return pct;
  if (typeof value === 'number') return value;
  const n = Number.parseInt(asString(value), 10);
  return /^[-+]?\d+$/.test(asString(value)) ? n : 0;
}

export function validatePositiveIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string')
    return isValidPercent(value).map((msg) => fieldError.invalid(path, goIntOrString(value), msg));
  return validateNonnegative(typeof value === 'number' ? value : 0, path);
}

export function notMoreThan100Percent(value: unknown, path: string): FieldError[] {
  const pct = percentOf(value);
  return pct !== undefined && pct > 100
    ? [fieldError.invalid(path, goIntOrString(value), 'must not be greater than 100%')]
    : [];
}
