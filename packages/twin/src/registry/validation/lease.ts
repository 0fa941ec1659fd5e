// ValidateLeaseSpec from pkg/apis/coordination/validation/validation.go (unchanged from 1.31 to
// 1.33): positive duration, non-negative transitions, a known or qualified strategy, and a
// preferredHolder only with a strategy. Object-meta rules are the registry's.

import type { FieldError } from '../../apimachinery/field-errors.js';
import { fieldError } from '../../apimachinery/field-errors.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord } from '../../apimachinery/types.js';

/** validLeaseStrategies: the only Kubernetes-defined CoordinatedLeaseStrategy. */
const validLeaseStrategies = ['OldestEmulationVersion'] as const;

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedName = new RegExp(`^${qualifiedNameFmt}$`);
const dns1123SubdomainFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const dns1123Subdomain = new RegExp(`^${dns1123SubdomainFmt}$`);
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameExamples = "(e.g. 'MyName',  or 'my.name',  or '123-abc', ";

/** utilvalidation.IsQualifiedName's messages (apimachinery/pkg/util/validation). */
function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  const regexError = `${qualifiedNameErrMsg} ${qualifiedNameExamples}regex used for validation is '${qualifiedNameFmt}')`;
  if (parts.length > 2) {
    return [
      `a qualified name ${regexError} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const name = parts.length === 2 ? (parts[1] ?? '') : (parts[0] ?? '');
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') errs.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
      if (!dns1123Subdomain.test(prefix))
        errs.push(
          `prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${dns1123SubdomainFmt}')`,
        );
    }
  }
  if (name === '') errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!qualifiedName.test(name)) errs.push(`name part ${regexError}`);
  return errs;
}

/** ValidateCoordinatedLeaseStrategy; note the doubled `.strategy` in its field paths. */
function validateStrategy(strategy: string, path: string): FieldError[] {
  const field = `${path}.strategy`;
  if (strategy.split('/').length === 1) {
    return (validLeaseStrategies as readonly string[]).includes(strategy)
      ? []
      : [fieldError.notSupported(field, strategy, validLeaseStrategies)];
  }
  return isQualifiedName(strategy).map((msg) => fieldError.invalid(field, strategy, msg));
}

export function validateLeaseSpec(lease: KubeObject): FieldError[] {
  const spec = asRecord(lease['spec']);
  const errors: FieldError[] = [];
  const duration = spec['leaseDurationSeconds'];
  if (typeof duration === 'number' && duration <= 0)
    errors.push(
      fieldError.invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'),
    );
  const transitions = spec['leaseTransitions'];
  if (typeof transitions === 'number' && transitions < 0) {
    errors.push(
      fieldError.invalid(
        'spec.leaseTransitions',
        transitions,
        'must be greater than or equal to 0',
      ),
    );
  }
  const strategy = spec['strategy'];
  if (typeof strategy === 'string') errors.push(...validateStrategy(strategy, 'spec.strategy'));
  const preferred = spec['preferredHolder'];
  if (typeof preferred === 'string' && preferred !== '' && (strategy ?? '') === '') {
    errors.push(
      fieldError.forbidden(
        'spec.preferredHolder',
        'may only be specified if `strategy` is defined',
      ),
    );
  }
  return errors;
}
