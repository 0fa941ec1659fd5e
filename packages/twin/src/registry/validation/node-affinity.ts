// Node selector terms as pkg/apis/core/validation/validation.go checks them
// (ValidateNodeSelector, ValidateNodeSelectorRequirement, ValidateNodeFieldSelectorRequirement,
// ValidatePreferredSchedulingTerms), used by pods and by every pod template (DaemonSets).

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { asArray, asRecord, isJsonObject, asString } from '../../apimachinery/types.js';
import { isValidLabelValue, nameIsDNSSubdomain } from './names.js';
import { validateLabelName } from './object-meta.js';
import { child, index } from './path.js';

export function validateNodeSelectorRequirement(
  req: unknown,
  allowInvalidLabelValue: boolean,
  path: string,
): FieldError[] {
  const r = asRecord(req);
  const op = r['operator'];
  const values = asArray(r['values']).map(String);
  const errs: FieldError[] = [];
  if (op === 'In' || op === 'NotIn') {
    if (values.length === 0)
      errs.push(
        fieldError.required(
          child(path, 'values'),
          "must be specified when `operator` is 'In' or 'NotIn'",
        ),
      );
  } else if (op === 'Exists' || op === 'DoesNotExist') {
    if (values.length > 0)
      errs.push(
        fieldError.forbidden(
          child(path, 'values'),
          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
      );
  } else if (op === 'Gt' || op === 'Lt') {
    if (values.length !== 1)
      errs.push(
        fieldError.required(
          child(path, 'values'),
          "must be specified single value when `operator` is 'Lt' or 'Gt'",
        ),
      );
  } else {
    errs.push(
      fieldError.invalid(child(path, 'operator'), asString(op), 'not a valid selector operator'),
    );
  }
  errs.push(...validateLabelName(asString(r['key']), child(path, 'key')));
  if (!allowInvalidLabelValue)
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v))
        errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
    });
  return errs;
}

/** matchFields: only metadata.name, with In or NotIn and exactly one node name. */
export function validateNodeFieldSelectorRequirement(req: unknown, path: string): FieldError[] {
  const r = asRecord(req);
  const op = r['operator'];
  const values = asArray(r['values']).map(String);
  const errs: FieldError[] = [];
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1)
      errs.push(
        fieldError.required(
          child(path, 'values'),
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
  } else {
    errs.push(
      fieldError.invalid(child(path, 'operator'), asString(op), 'not a valid selector operator'),
    );
  }
  const key = asString(r['key']);
  if (key !== 'metadata.name') {
    errs.push(fieldError.invalid(child(path, 'key'), key, 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => {
      for (const msg of nameIsDNSSubdomain(v, false))
        errs.push(fieldError.invalid(index(child(path, 'values'), i), v, msg));
    });
  }
  return errs;
}

export function validateNodeSelectorTerm(
  term: unknown,
  allowInvalidLabelValue: boolean,
  path: string,
): FieldError[] {
  const t = asRecord(term);
  const errs: FieldError[] = [];
  asArray(t['matchExpressions']).forEach((req, j) =>
    errs.push(
      ...validateNodeSelectorRequirement(
        req,
        allowInvalidLabelValue,
        index(child(path, 'matchExpressions'), j),
      ),
    ),
  );
  asArray(t['matchFields']).forEach((req, j) =>
    errs.push(...validateNodeFieldSelectorRequirement(req, index(child(path, 'matchFields'), j))),
  );
  return errs;
}

/** ValidateNodeSelector: at least one term, each term's requirements valid. */
export function validateNodeSelector(
  selector: unknown,
  allowInvalidLabelValue: boolean,
  path: string,
): FieldError[] {
  const terms = asArray(asRecord(selector)['nodeSelectorTerms']);
  const termsPath = child(path, 'nodeSelectorTerms');
  if (terms.length === 0)
    return [fieldError.required(termsPath, 'must have at least one node selector term')];
  return terms.flatMap((term, i) =>
    validateNodeSelectorTerm(term, allowInvalidLabelValue, index(termsPath, i)),
  );
}

export function validatePreferredSchedulingTerms(terms: unknown, path: string): FieldError[] {
  return asArray(terms).flatMap((raw, i) => {
    const t = asRecord(raw);
    const weight = typeof t['weight'] === 'number' ? t['weight'] : 0;
    const errs: FieldError[] = [];
    if (weight <= 0 || weight > 100)
      errs.push(
        fieldError.invalid(child(index(path, i), 'weight'), weight, 'must be in the range 1-100'),
      );
    // Preferred terms always allow invalid label values: they can still match a single node.
    errs.push(
      ...validateNodeSelectorTerm(t['preference'], true, child(index(path, i), 'preference')),
    );
    return errs;
  });
}

/** validateNodeAffinity: the required selector and the preferred terms. */
export function validateNodeAffinity(affinity: unknown, path: string): FieldError[] {
  const na = asRecord(affinity);
  const errs: FieldError[] = [];
  const required = na['requiredDuringSchedulingIgnoredDuringExecution'];
  if (isJsonObject(required))
    errs.push(
      ...validateNodeSelector(
        required,
        false,
        child(path, 'requiredDuringSchedulingIgnoredDuringExecution'),
      ),
    );
  const preferred = asArray(na['preferredDuringSchedulingIgnoredDuringExecution']);
  if (preferred.length > 0)
    errs.push(
      ...validatePreferredSchedulingTerms(
        preferred,
        child(path, 'preferredDuringSchedulingIgnoredDuringExecution'),
      ),
    );
  return errs;
}
