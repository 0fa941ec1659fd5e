// ValidatingAdmissionPolicy and its binding as pkg/apis/admissionregistration/validation checks
// them, after SetDefaults (failurePolicy Fail, matchPolicy Equivalent, empty selectors, rule
// scope `*`): required fields, enumerations, rules, match conditions, validation actions. The
// CEL compile step (type-checking every expression) is not modelled: the twin evaluates no CEL,
// so an expression is only checked to be non-empty.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { GoValue } from '../../apimachinery/go-value.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString } from '../../apimachinery/types.js';
import { validateLabelSelector } from './label-selector.js';
import { isQualifiedName, nameIsDNSSubdomain, pathSegmentName } from './names.js';
import { validateObjectMeta } from './object-meta.js';
import { child, index } from './path.js';

const failurePolicies = ['Fail', 'Ignore'];
const matchPolicies = ['Equivalent', 'Exact'];
const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const reasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const actions = ['Audit', 'Deny', 'Warn'];

const strings = (v: unknown): string[] => asArray(v).map((s) => asString(s));
const goStrings = (type: string, list: readonly string[]): GoValue =>
  new GoValue(`[]${type}{${list.map((s) => JSON.stringify(s)).join(', ')}}`);

/** SetDefaults_MatchResources and SetDefaults_Rule, in place. */
function defaultMatchResources(mr: JsonObject): void {
  mr['matchPolicy'] ??= 'Equivalent';
  mr['namespaceSelector'] ??= {};
  mr['objectSelector'] ??= {};
  for (const list of [mr['resourceRules'], mr['excludeResourceRules']])
    for (const rule of asArray(list)) {
      const r = asRecord(rule);
      r['scope'] ??= '*';
    }
}

export function defaultPolicy(policy: KubeObject): void {
  const spec = asRecord(policy['spec']);
  spec['failurePolicy'] ??= 'Fail';
  if (spec['matchConstraints'] !== undefined)
    defaultMatchResources(asRecord(spec['matchConstraints']));
  policy['spec'] = spec;
}

export function defaultBinding(binding: KubeObject): void {
  const spec = asRecord(binding['spec']);
  if (spec['matchResources'] !== undefined) defaultMatchResources(asRecord(spec['matchResources']));
  binding['spec'] = spec;
}

function validateRule(rule: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule['operations']);
  if (ops.length === 0) errs.push(fieldError.required(child(path, 'operations')));
  if (ops.length > 1 && ops.includes('*'))
    errs.push(
      fieldError.invalid(
        child(path, 'operations'),
        goStrings('admissionregistration.OperationType', ops),
        "if '*' is present, must not specify other operations",
      ),
    );
  ops.forEach((op, i) => {
    if (!operations.includes(op))
      errs.push(fieldError.notSupported(index(child(path, 'operations'), i), op, operations));
  });
  // validateRule: every list non-empty.
  for (const list of ['apiGroups', 'apiVersions', 'resources'])
    if (strings(rule[list]).length === 0) errs.push(fieldError.required(child(path, list)));
  strings(rule['resourceNames']).forEach((name, i) => {
    for (const msg of pathSegmentName(name, false))
      errs.push(fieldError.invalid(index(child(path, 'resourceNames'), i), name, msg));
  });
  return errs;
}

function validateMatchResources(mr: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const policy = asString(mr['matchPolicy']);
  if (!matchPolicies.includes(policy))
    errs.push(fieldError.notSupported(child(path, 'matchPolicy'), policy, matchPolicies));
  errs.push(...validateLabelSelector(mr['namespaceSelector'], child(path, 'namespaceSelector')));
  errs.push(...validateLabelSelector(mr['objectSelector'], child(path, 'objectSelector')));
  for (const list of ['resourceRules', 'excludeResourceRules'])
    asArray(mr[list]).forEach((r, i) =>
      errs.push(...validateRule(asRecord(r), index(child(path, list), i))),
    );
  return errs;
}

function validateMatchConditions(conditions: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = asArray(conditions);
  if (list.length > 64) errs.push(fieldError.tooMany(path, list.length, 64));
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const at = index(path, i);
    const cond = asRecord(c);
    if (asString(cond['expression']).trim() === '')
      errs.push(fieldError.required(child(at, 'expression')));
    const name = asString(cond['name']);
    if (name === '') errs.push(fieldError.required(child(at, 'name')));
    else
      for (const msg of isQualifiedName(name))
        errs.push(fieldError.invalid(child(at, 'name'), name, msg));
    if (name !== '') {
      if (seen.has(name)) errs.push(fieldError.duplicate(child(at, 'name'), name));
      seen.add(name);
    }
  });
  return errs;
}

export function validatePolicy(policy: KubeObject): FieldError[] {
  const errs = validateObjectMeta(policy.metadata, false, nameIsDNSSubdomain, 'metadata');
  const spec = asRecord(policy['spec']);
  const failure = asString(spec['failurePolicy']);
  if (!failurePolicies.includes(failure))
    errs.push(fieldError.notSupported('spec.failurePolicy', failure, failurePolicies));
  if (spec['paramKind'] !== undefined) {
    const kind = asRecord(spec['paramKind']);
    if (asString(kind['apiVersion']) === '')
      errs.push(fieldError.required('spec.paramKind.apiVersion'));
    if (asString(kind['kind']) === '') errs.push(fieldError.required('spec.paramKind.kind'));
  }
  if (spec['matchConstraints'] === undefined) {
    errs.push(fieldError.required('spec.matchConstraints'));
  } else {
    const mc = asRecord(spec['matchConstraints']);
    errs.push(...validateMatchResources(mc, 'spec.matchConstraints'));
    // At least one resource rule, to give the expressions their types.
    if (asArray(mc['resourceRules']).length === 0)
      errs.push(fieldError.required('spec.matchConstraints.resourceRules'));
  }
  errs.push(...validateMatchConditions(spec['matchConditions'], 'spec.matchConditions'));
  asArray(spec['variables']).forEach((v, i) => {
    const at = index('spec.variables', i);
    const name = asString(asRecord(v)['name']);
    if (name.trim() === '')
      errs.push(fieldError.required(child(at, 'name'), 'name is not specified'));
    else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name))
      errs.push(fieldError.invalid(child(at, 'name'), name, 'name is not a valid CEL identifier'));
    if (asString(asRecord(v)['expression']).trim() === '')
      errs.push(fieldError.required(child(at, 'expression'), 'expression is not specified'));
  });
  const validations = asArray(spec['validations']);
  const audits = asArray(spec['auditAnnotations']);
  if (validations.length === 0 && audits.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    errs.push(fieldError.required('spec.validations', detail));
    errs.push(fieldError.required('spec.auditAnnotations', detail));
  }
  validations.forEach((v, i) => {
    const at = index('spec.validations', i);
    const val = asRecord(v);
    if (asString(val['expression']).trim() === '')
      errs.push(fieldError.required(child(at, 'expression'), 'expression is not specified'));
    const message = asString(val['message']);
    if (message.length > 0 && message.trim() === '')
      errs.push(
        fieldError.invalid(child(at, 'message'), message, 'message must be non-empty if specified'),
      );
    else if (/[\n\r]/.test(message.trim()))
      errs.push(
        fieldError.invalid(child(at, 'message'), message, 'message must not contain line breaks'),
      );
    if (val['reason'] !== undefined && !reasons.includes(asString(val['reason'])))
      errs.push(fieldError.notSupported(child(at, 'reason'), asString(val['reason']), reasons));
  });
  return errs;
}

export function validateBinding(binding: KubeObject): FieldError[] {
  const errs = validateObjectMeta(binding.metadata, false, nameIsDNSSubdomain, 'metadata');
  const spec = asRecord(binding['spec']);
  const policyName = asString(spec['policyName']);
  if (policyName === '') errs.push(fieldError.required('spec.policyName'));
  else
    for (const msg of nameIsDNSSubdomain(policyName, false))
      errs.push(fieldError.invalid('spec.policyName', policyName, msg));
  if (spec['matchResources'] !== undefined)
    // The misspelt path is the apiserver's own (validateValidatingAdmissionPolicyBindingSpec).
    errs.push(...validateMatchResources(asRecord(spec['matchResources']), 'spec.matchResouces'));
  const list = strings(spec['validationActions']);
  const seen = new Set<string>();
  list.forEach((a, i) => {
    if (!actions.includes(a))
      errs.push(fieldError.notSupported(index('spec.validationActions', i), a, actions));
    if (seen.has(a)) errs.push(fieldError.duplicate(index('spec.validationActions', i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errs.push(
      fieldError.invalid(
        'spec.validationActions',
        goStrings('admissionregistration.ValidationAction', list),
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  if (seen.size === 0)
    errs.push(
      fieldError.required('spec.validationActions', 'at least one validation action is required'),
    );
  return errs;
}
