// DaemonSets as pkg/apis/apps/validation/validation.go checks them (ValidateDaemonSet,
// ValidateDaemonSetSpec, ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet,
// ValidateDaemonSetUpdate, ValidateDaemonSetStatusUpdate), with the 1.33 Go renderings of values.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import {
  goIntOrString,
  goLabelSelector,
  goQuote,
  goStringMap,
  goStruct,
} from '../../apimachinery/go-value.js';
import type { KubeObject } from '../../apimachinery/types.js';
import {
  asRecord,
  deepEqual,
  isJsonObject,
  type JsonObject,
  asString,
} from '../../apimachinery/types.js';
import { nameIsDNSSubdomain } from './names.js';
import {
  intOrPercentValue,
  notMoreThan100Percent,
  validatePositiveIntOrPercent,
} from './int-or-percent.js';
import { selectorMatches, validateLabelSelector } from './label-selector.js';
import {
  fieldImmutable,
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from './object-meta.js';
import { validatePodTemplateSpec } from './pod-spec.js';
import { child } from './path.js';

export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

function spec(ds: KubeObject): JsonObject {
  return asRecord(ds['spec']);
}

function validateRollingUpdate(ru: JsonObject, path: string): FieldError[] {
  const maxUnavailable = ru['maxUnavailable'] ?? 0;
  const maxSurge = ru['maxSurge'] ?? 0;
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, child(path, 'maxUnavailable')),
    ...validatePositiveIntOrPercent(maxSurge, child(path, 'maxSurge')),
    ...notMoreThan100Percent(maxUnavailable, child(path, 'maxUnavailable')),
    ...notMoreThan100Percent(maxSurge, child(path, 'maxSurge')),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge)
    errs.push(
      fieldError.invalid(
        child(path, 'maxSurge'),
        goIntOrString(maxSurge),
        'may not be set when maxUnavailable is non-zero',
      ),
    );
  else if (!hasUnavailable && !hasSurge)
    errs.push(fieldError.required(child(path, 'maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  return errs;
}

function validateUpdateStrategy(strategy: unknown, path: string): FieldError[] {
  const s = asRecord(strategy);
  const type = s['type'];
  if (type === 'OnDelete') return [];
  if (type === 'RollingUpdate') {
    if (!isJsonObject(s['rollingUpdate']))
      return [fieldError.required(child(path, 'rollingUpdate'))];
    return validateRollingUpdate(s['rollingUpdate'], child(path, 'rollingUpdate'));
  }
  const rolling = isJsonObject(s['rollingUpdate'])
    ? '(*apps.RollingUpdateDaemonSet)(0xc000a1b2c0)'
    : '(*apps.RollingUpdateDaemonSet)(nil)';
  const shown = goStruct('apps.DaemonSetUpdateStrategy', [
    ['Type', goQuote(asString(type))],
    ['RollingUpdate', rolling],
  ]);
  return [fieldError.notSupported(path, shown, ['RollingUpdate', 'OnDelete'])];
}

/** The template generation the apiserver keeps in spec.templateGeneration (the annotation in v1). */
export function templateGenerationOf(ds: KubeObject): number {
  const value = Number(ds.metadata.annotations?.[templateGenerationAnnotation] ?? '0');
  return Number.isInteger(value) ? value : 0;
}

export function validateDaemonSetSpec(ds: KubeObject): FieldError[] {
  const s = spec(ds);
  const selector = s['selector'];
  const template = asRecord(s['template']);
  const templateLabels = asRecord(asRecord(template['metadata'])['labels']);
  const errs = validateLabelSelector(selector, 'spec.selector');
  if (selectorMatches(selector, templateLabels) === false)
    errs.push(
      fieldError.invalid(
        'spec.template.metadata.labels',
        goStringMap(
          isJsonObject(asRecord(template['metadata'])['labels']) ? templateLabels : undefined,
        ),
        '`selector` does not match template `labels`',
      ),
    );
  const sel = asRecord(selector);
  if (
    isJsonObject(selector) &&
    Object.keys(asRecord(sel['matchLabels'])).length +
      (Array.isArray(sel['matchExpressions']) ? sel['matchExpressions'].length : 0) ===
      0
  )
    errs.push(
      fieldError.invalid(
        'spec.selector',
        goLabelSelector(selector),
        'empty selector is invalid for daemonset',
      ),
    );
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  const templateSpec = asRecord(template['spec']);
  const restart = templateSpec['restartPolicy'];
  if (restart !== 'Always')
    errs.push(
      fieldError.notSupported('spec.template.spec.restartPolicy', asString(restart), ['Always']),
    );
  if (
    templateSpec['activeDeadlineSeconds'] !== undefined &&
    templateSpec['activeDeadlineSeconds'] !== null
  )
    errs.push(
      fieldError.forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        'activeDeadlineSeconds in DaemonSet is not Supported',
      ),
    );
  errs.push(...validateNonnegative(s['minReadySeconds'] ?? 0, 'spec.minReadySeconds'));
  errs.push(...validateNonnegative(templateGenerationOf(ds), 'spec.templateGeneration'));
  errs.push(...validateUpdateStrategy(s['updateStrategy'], 'spec.updateStrategy'));
  if (typeof s['revisionHistoryLimit'] === 'number')
    errs.push(...validateNonnegative(s['revisionHistoryLimit'], 'spec.revisionHistoryLimit'));
  return errs;
}

export function validateDaemonSet(ds: KubeObject): FieldError[] {
  return [
    ...validateObjectMeta(ds.metadata, true, nameIsDNSSubdomain, 'metadata', {
      kubeFinalizers: true,
    }),
    ...validateDaemonSetSpec(ds),
  ];
}

/**
 * The strategy's ValidateUpdate: ValidateDaemonSet, then ValidateDaemonSetUpdate (metadata update
 * rules and the spec once more, so spec errors are listed twice as upstream), then the apps/v1
 * selector immutability.
 */
export function validateDaemonSetUpdate(ds: KubeObject, old: KubeObject): FieldError[] {
  const errs = [
    ...validateDaemonSet(ds),
    ...validateObjectMetaUpdate(ds.metadata, old.metadata, 'metadata', { kubeFinalizers: true }),
    ...validateDaemonSetSpec(ds),
  ];
  if (!deepEqual(spec(ds)['selector'] ?? null, spec(old)['selector'] ?? null))
    errs.push(
      fieldError.invalid('spec.selector', goLabelSelector(spec(ds)['selector']), fieldImmutable),
    );
  return errs;
}

export function validateDaemonSetStatusUpdate(ds: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObjectMetaUpdate(ds.metadata, old.metadata, 'metadata', {
    kubeFinalizers: true,
  });
  const status = asRecord(ds['status']);
  for (const f of [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'collisionCount',
  ])
    errs.push(...validateNonnegative(status[f], `status.${f}`));
  const next = status['collisionCount'];
  const prev = asRecord(old['status'])['collisionCount'];
  if (typeof prev === 'number' && (typeof next !== 'number' || next < prev))
    errs.push(
      fieldError.invalid(
        'status.collisionCount',
        typeof next === 'number' ? next : 0,
        'cannot be decremented',
      ),
    );
  return errs;
}
