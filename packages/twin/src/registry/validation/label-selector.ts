// metav1validation.ValidateLabelSelector (apimachinery/pkg/apis/meta/v1/validation), and whether
// metav1.LabelSelectorAsSelector would accept the selector and match a set of labels.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { asArray, asRecord, isJsonObject, asString } from '../../apimachinery/types.js';
import { isValidLabelValue } from './names.js';
import { validateLabelName, validateLabels } from './object-meta.js';
import { child, index } from './path.js';

export function validateLabelSelectorRequirement(req: unknown, path: string): FieldError[] {
  const r = asRecord(req);
  const operator = r['operator'];
  const values = asArray(r['values']).map(String);
  const errs: FieldError[] = [];
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0)
      errs.push(
        fieldError.required(
          child(path, 'values'),
          "must be specified when `operator` is 'In' or 'NotIn'",
        ),
      );
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0)
      errs.push(
        fieldError.forbidden(
          child(path, 'values'),
          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
      );
  } else {
    errs.push(
      fieldError.invalid(
        child(path, 'operator'),
        asString(operator),
        'not a valid selector operator',
      ),
    );
  }
  errs.push(...validateLabelName(asString(r['key']), child(path, 'key')));
  values.forEach((v, i) => {
    for (const msg of isValidLabelValue(v))
      errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
  });
  return errs;
}

export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (!isJsonObject(selector)) return [];
  const errs = validateLabels(selector['matchLabels'], child(path, 'matchLabels'));
  asArray(selector['matchExpressions']).forEach((expr, i) =>
    errs.push(...validateLabelSelectorRequirement(expr, index(child(path, 'matchExpressions'), i))),
  );
  return errs;
}

/**
 * LabelSelectorAsSelector then Matches: undefined when the selector does not convert (the callers
 * skip their match check then); a missing selector converts to Nothing and matches no labels.
 */
export function selectorMatches(
  selector: unknown,
  labels: Readonly<Record<string, unknown>>,
): boolean | undefined {
  if (selector === undefined || selector === null) return false;
  if (validateLabelSelector(selector, 'x').length > 0) return undefined;
  const s = asRecord(selector);
  const matchLabels = asRecord(s['matchLabels']);
  for (const [k, v] of Object.entries(matchLabels)) if (labels[k] !== v) return false;
  for (const raw of asArray(s['matchExpressions'])) {
    const r = asRecord(raw);
    const k = asString(r['key']);
    const values = asArray(r['values']).map(String);
    const has = Object.hasOwn(labels, k);
    const value = asString(labels[k]);
    const ok =
      r['operator'] === 'In'
        ? has && values.includes(value)
        : r['operator'] === 'NotIn'
          ? !has || !values.includes(value)
          : r['operator'] === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}
