// Pods as pkg/apis/core/validation/validation.go checks them: ValidatePodCreate, ValidatePodUpdate
// (only images, activeDeadlineSeconds, added tolerations and a few more may change) and
// ValidatePodStatusUpdate. The Forbidden spec message ends with cmp.Diff of Go structs upstream;
// the twin lists the changed fields instead (see docs/twin.md).

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import type { KubeObject } from '../../apimachinery/types.js';
import {
  asArray,
  asRecord,
  cloneJson,
  deepEqual,
  type JsonObject,
} from '../../apimachinery/types.js';
import { inclusiveRangeError, nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { validatePodSpec, validateTolerations } from './pod-spec.js';
import { child, index } from './path.js';

const maxInt32 = 2147483647;
const updatableFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

function spec(pod: KubeObject): JsonObject {
  return asRecord(pod['spec']);
}

function metadataAndSpec(pod: KubeObject): FieldError[] {
  const errs = [
    ...validateObjectMeta(pod.metadata, true, nameIsDNSSubdomain, 'metadata', {
      kubeFinalizers: true,
    }),
    ...validatePodSpec(pod['spec'], 'spec', { resourceIsPod: true }),
  ];
  for (const key of ['containers', 'initContainers'])
    asArray(spec(pod)[key]).forEach((c, i) => {
      const image = asRecord(c)['image'];
      if (typeof image === 'string' && image !== image.trim())
        errs.push(
          fieldError.invalid(
            child(index(`spec.${key}`, i), 'image'),
            image,
            'must not have leading or trailing whitespace',
          ),
        );
    });
  return errs;
}

export function validatePodCreate(pod: KubeObject): FieldError[] {
  const errs = metadataAndSpec(pod);
  if (asArray(spec(pod)['ephemeralContainers']).length > 0)
    errs.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  return errs;
}

function containerUpdates(
  next: unknown,
  old: unknown,
  path: string,
): { errs: FieldError[]; stop: boolean } {
  const n = asArray(next);
  if (n.length !== asArray(old).length)
    return {
      errs: [fieldError.forbidden(path, 'pod updates may not add or remove containers')],
      stop: true,
    };
  const errs: FieldError[] = [];
  n.forEach((c, i) => {
    const image = asRecord(c)['image'];
    if (typeof image !== 'string' || image === '')
      errs.push(fieldError.required(child(index(path, i), 'image')));
  });
  return { errs, stop: false };
}

/** Every old toleration must still be there (tolerationSeconds may change); then the new list is validated. */
function onlyAddedTolerations(next: unknown, old: unknown, path: string): FieldError[] {
  const n = asArray(next).map(asRecord);
  for (const o of asArray(old).map(asRecord)) {
    const found = n.some((t) =>
      deepEqual(
        { ...o, tolerationSeconds: t['tolerationSeconds'] ?? null },
        { ...t, tolerationSeconds: t['tolerationSeconds'] ?? null },
      ),
    );
    if (!found)
      return [
        fieldError.forbidden(
          path,
          'existing toleration can not be modified except its tolerationSeconds',
        ),
      ];
  }
  return validateTolerations(next, path);
}

/** The changed top-level spec fields, in a cmp.Diff-like shape (upstream prints the Go structs). */
function specDiff(old: JsonObject, munged: JsonObject): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(munged)])].sort();
  const lines = keys
    .filter((k) => !deepEqual(old[k], munged[k]))
    .flatMap((k) => [
      ...(old[k] === undefined ? [] : [`- \t${k}: ${JSON.stringify(old[k])},`]),
      ...(munged[k] === undefined ? [] : [`+ \t${k}: ${JSON.stringify(munged[k])},`]),
    ]);
  return `  core.PodSpec{\n${lines.join('\n')}\n  }\n`;
}

export function validatePodUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs = [
    ...validateObjectMetaUpdate(pod.metadata, old.metadata, 'metadata', { kubeFinalizers: true }),
    ...metadataAndSpec(pod),
  ];
  const next = spec(pod);
  const prev = spec(old);
  for (const key of ['containers', 'initContainers']) {
    const r = containerUpdates(next[key], prev[key], `spec.${key}`);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const ads = next['activeDeadlineSeconds'];
  const oldAds = prev['activeDeadlineSeconds'];
  if (typeof ads === 'number') {
    if (ads < 0 || ads > maxInt32) {
      errs.push(
        fieldError.invalid('spec.activeDeadlineSeconds', ads, inclusiveRangeError(0, maxInt32)),
      );
      return errs;
    }
    if (typeof oldAds === 'number' && oldAds < ads) {
      errs.push(
        fieldError.invalid(
          'spec.activeDeadlineSeconds',
          ads,
          'must be less than or equal to previous value',
        ),
      );
      return errs;
    }
  } else if (typeof oldAds === 'number') {
    errs.push(
      fieldError.invalid(
        'spec.activeDeadlineSeconds',
        null,
        'must not update from a positive integer to nil value',
      ),
    );
  }
  errs.push(...onlyAddedTolerations(next['tolerations'], prev['tolerations'], 'spec.tolerations'));
  if (deepEqual(next, prev)) return errs;
  const munged = cloneJson(next);
  for (const key of ['containers', 'initContainers']) {
    const olds = asArray(prev[key]);
    const list = asArray(munged[key]);
    list.forEach((c, i) => {
      const image = asRecord(olds[i])['image'];
      if (image !== undefined) asRecord(c)['image'] = image;
    });
  }
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (prev[key] === undefined) delete munged[key];
    else munged[key] = cloneJson(prev[key]);
  }
  const grace = prev['terminationGracePeriodSeconds'];
  if (typeof grace === 'number' && grace < 0 && munged['terminationGracePeriodSeconds'] === 1)
    munged['terminationGracePeriodSeconds'] = grace;
  if (!deepEqual(munged, prev))
    errs.push(
      fieldError.forbidden(
        'spec',
        `pod updates may not change fields other than ${updatableFields.join(',')}\n${specDiff(prev, munged)}`,
      ),
    );
  return errs;
}

/** ValidatePodStatusUpdate, for what the twin's kubelet and clients write. */
export function validatePodStatusUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, 'metadata', {
    kubeFinalizers: true,
  });
  if (spec(pod)['nodeName'] !== spec(old)['nodeName'])
    errs.push(fieldError.forbidden('status.nodeName', 'may not be changed directly'));
  return errs;
}
