// PodDisruptionBudget validation (pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec and
// ...StatusUpdate), with the apimachinery checks it calls: ValidatePositiveIntOrPercent and
// IsNotMoreThan100Percent (apps validation), ValidateLabelSelector (meta/v1 validation), and the
// IsQualifiedName / IsValidLabelValue messages of util/validation.

import type { FieldError } from '../../apimachinery/field-errors.js';
import { fieldError } from '../../apimachinery/field-errors.js';
import type { JsonObject, JsonValue } from '../../apimachinery/types.js';
import { asArray, asRecord, isJsonObject } from '../../apimachinery/types.js';

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedName = new RegExp(`^${qualifiedNameFmt}$`);
const labelValue = new RegExp(`^(${qualifiedNameFmt})?$`);
const subdomainFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const subdomain = new RegExp(`^${subdomainFmt}$`);

/** validation.RegexError, double space before each " or " included. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  const eg = examples.map((e, i) => `${i > 0 ? ' or ' : ''}'${e}', `).join('');
  return `${msg} (e.g. ${eg}regex used for validation is '${fmt}')`;
}

const qualifiedMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** validation.IsQualifiedName. */
function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  const errs: string[] = [];
  let name = parts[0] ?? '';
  if (parts.length > 2) {
    return [
      `a qualified name ${regexError(qualifiedMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix === '') errs.push('prefix part must be non-empty');
    else if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
    else if (!subdomain.test(prefix)) {
      const msg =
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
      errs.push(`prefix part ${regexError(msg, subdomainFmt, 'example.com')}`);
    }
  }
  if (name === '') errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!qualifiedName.test(name))
    errs.push(
      `name part ${regexError(qualifiedMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`,
    );
  return errs;
}

/** validation.IsValidLabelValue. */
function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelValue.test(value)) {
    const msg =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    errs.push(regexError(msg, `(${qualifiedNameFmt})?`, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

/** metav1validation.ValidateLabelSelector with AllowInvalidLabelValueInSelector false. */
export function validateLabelSelector(selector: JsonValue | undefined, path: string): FieldError[] {
  if (!isJsonObject(selector)) return [];
  const errs: FieldError[] = [];
  const labelsPath = `${path}.matchLabels`;
  for (const [k, v] of Object.entries(asRecord(selector['matchLabels']))) {
    for (const m of qualifiedNameErrors(k)) errs.push(fieldError.invalid(labelsPath, k, m));
    const value = typeof v === 'string' ? v : '';
    for (const m of labelValueErrors(value)) errs.push(fieldError.invalid(labelsPath, value, m));
  }
  asArray(selector['matchExpressions']).forEach((raw, i) => {
    const expr = asRecord(raw);
    const at = `${path}.matchExpressions[${i}]`;
    const op = expr['operator'];
    const values = asArray(expr['values']);
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0)
        errs.push(
          fieldError.required(
            `${at}.values`,
            "must be specified when `operator` is 'In' or 'NotIn'",
          ),
        );
      values.forEach((value, j) => {
        const text = typeof value === 'string' ? value : '';
        for (const m of labelValueErrors(text))
          errs.push(fieldError.invalid(`${at}.values[${j}]`, text, m));
      });
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length > 0)
        errs.push(
          fieldError.forbidden(
            `${at}.values`,
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
    } else {
      errs.push(fieldError.invalid(`${at}.operator`, op ?? '', 'not a valid selector operator'));
    }
    const key = typeof expr['key'] === 'string' ? expr['key'] : '';
    for (const m of qualifiedNameErrors(key)) errs.push(fieldError.invalid(`${at}.key`, key, m));
  });
  return errs;
}

/** An IntOrString as field.Error prints it (%#v: the pointer-receiver String() does not apply). */
function intOrStringValue(v: JsonValue): string {
  return typeof v === 'string'
    ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`
    : `intstr.IntOrString{Type:0, IntVal:${JSON.stringify(v)}, StrVal:""}`;
}

function invalidShown(field: string, shown: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, body: `Invalid value: ${shown}: ${detail}` };
}

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
function validateIntOrPercent(value: JsonValue, path: string): FieldError[] {
  if (typeof value === 'number') {
    return value < 0 ? [fieldError.invalid(path, value, 'must be greater than or equal to 0')] : [];
  }
  if (typeof value !== 'string')
    return [
      invalidShown(path, JSON.stringify(value), "must be an integer or percentage (e.g '5%')"),
    ];
  if (!/^[0-9]+%$/.test(value)) {
    const msg = "a valid percent string must be a numeric string followed by an ending '%'";
    return [invalidShown(path, intOrStringValue(value), regexError(msg, '[0-9]+%', '1%', '93%'))];
  }
  if (Number(value.slice(0, -1)) > 100)
    return [invalidShown(path, intOrStringValue(value), 'must not be greater than 100%')];
  return [];
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
