// ObjectMeta validation as k8s.io/apimachinery/pkg/api/validation/objectmeta.go does it (v0.33),
// plus the finalizer-name rule pkg/apis/core/validation adds for built-in kinds. Map keys are
// checked in sorted order (Go iterates maps randomly; the twin must be deterministic).

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { GoValue } from '../../apimachinery/go-value.js';
import type { ObjectMeta } from '../../apimachinery/types.js';
import { asArray, asRecord, deepEqual, asString } from '../../apimachinery/types.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel, type NameFunc } from './names.js';
import { child, index } from './path.js';

export const fieldImmutable = 'field is immutable';
export const isNegative = 'must be greater than or equal to 0';
/** TotalAnnotationSizeLimitB: 256 KiB over all keys and values. */
export const annotationSizeLimit = 256 * 1024;
/** helper.IsStandardFinalizerName: the unqualified finalizers Kubernetes itself uses. */
const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

export interface MetaOptions {
  /** core/validation's extra rule: an unqualified finalizer must be a standard one. */
  kubeFinalizers?: boolean;
}

function sortedKeys(m: unknown): string[] {
  return Object.keys(asRecord(m)).sort();
}

export function validateNonnegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0
    ? [fieldError.invalid(path, value, isNegative)]
    : [];
}

/** ValidateLabelName: a qualified name. */
export function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
}

/** metav1validation.ValidateLabels: qualified keys and label values, reported at the map's path. */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  const m = asRecord(labels);
  const errs: FieldError[] = [];
  for (const k of sortedKeys(m)) {
    errs.push(...validateLabelName(k, path));
    const v = asString(m[k]);
    for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(path, v, msg));
  }
  return errs;
}

export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const m = asRecord(annotations);
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of sortedKeys(m)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(path, k, msg));
    size += Buffer.byteLength(k) + Buffer.byteLength(asString(m[k]));
  }
  if (size > annotationSizeLimit) errs.push(fieldError.tooLong(path, annotationSizeLimit));
  return errs;
}

function validateFinalizers(finalizers: unknown, path: string, opts: MetaOptions): FieldError[] {
  const list = asArray(finalizers).map(String);
  const errs: FieldError[] = [];
  for (const f of list)
    for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid(path, f, msg));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(
      fieldError.invalid(
        path,
        new GoValue(`[]string{${list.map((f) => JSON.stringify(f)).join(', ')}}`),
        'finalizer orphan and foregroundDeletion cannot be both set',
      ),
    );
  }
  if (opts.kubeFinalizers) errs.push(...kubeFinalizerNames(list, path));
  return errs;
}

function kubeFinalizerNames(list: readonly string[], path: string): FieldError[] {
  return list.flatMap((f, i) =>
    !f.includes('/') && !standardFinalizers.has(f)
      ? [
          fieldError.invalid(
            index(path, i),
            f,
            'name is neither a standard finalizer name nor is it fully qualified',
          ),
        ]
      : [],
  );
}

/** ValidateOwnerReferences: the basics of each reference, and at most one controller. */
export function validateOwnerReferences(refs: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const raw of asArray(refs)) {
    const ref = asRecord(raw);
    const apiVersion = asString(ref['apiVersion']);
    const kind = asString(ref['kind']);
    const slashes = apiVersion.split('/').length - 1;
    if (apiVersion === '' || slashes > 1 || apiVersion.endsWith('/'))
      errs.push(
        fieldError.invalid(child(path, 'apiVersion'), apiVersion, 'version must not be empty'),
      );
    if (kind === '')
      errs.push(fieldError.invalid(child(path, 'kind'), kind, 'kind must not be empty'));
    if (!ref['name'])
      errs.push(
        fieldError.invalid(child(path, 'name'), asString(ref['name']), 'name must not be empty'),
      );
    if (!ref['uid'])
      errs.push(
        fieldError.invalid(child(path, 'uid'), asString(ref['uid']), 'uid must not be empty'),
      );
    if (apiVersion === 'v1' && kind === 'Event')
      errs.push(fieldError.invalid(path, ref, '/v1, Kind=Event is disallowed from being an owner'));
    if (ref['controller'] === true) {
      const name = `${kind}/${asString(ref['name'])}`;
      if (firstController === '') firstController = name;
      else
        errs.push(
          fieldError.invalid(
            path,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`,
          ),
        );
    }
  }
  return errs;
}

/** ValidateObjectMetaAccessor: names (with the kind's NameFunc), namespace, labels, and so on. */
export function validateObjectMeta(
  meta: ObjectMeta,
  requiresNamespace: boolean,
  nameFn: NameFunc,
  path = 'metadata',
  opts: MetaOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  if (generateName !== '')
    for (const msg of nameFn(generateName, true))
      errs.push(fieldError.invalid(child(path, 'generateName'), generateName, msg));
  const name = meta.name ?? '';
  if (name === '')
    errs.push(fieldError.required(child(path, 'name'), 'name or generateName is required'));
  else
    for (const msg of nameFn(name, false))
      errs.push(fieldError.invalid(child(path, 'name'), name, msg));
  const namespace = meta.namespace ?? '';
  if (requiresNamespace) {
    if (namespace === '') errs.push(fieldError.required(child(path, 'namespace')));
    else
      for (const msg of nameIsDNSLabel(namespace, false))
        errs.push(fieldError.invalid(child(path, 'namespace'), namespace, msg));
  } else if (namespace !== '') {
    errs.push(fieldError.forbidden(child(path, 'namespace'), 'not allowed on this type'));
  }
  errs.push(...validateNonnegative(meta.generation, child(path, 'generation')));
  errs.push(...validateLabels(meta.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, child(path, 'ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, child(path, 'finalizers'), opts));
  return errs;
}

/** metav1.Time prints through time.Time's String method: `2025-01-02 03:04:05 +0000 UTC`. */
function goTime(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return new GoValue(
    `${d
      .toISOString()
      .replace('T', ' ')
      .replace(/\.000Z$|Z$/, '')} +0000 UTC`,
  );
}

function immutable(next: unknown, old: unknown, path: string, shown: unknown = next): FieldError[] {
  return deepEqual(next ?? null, old ?? null)
    ? []
    : [fieldError.invalid(path, shown ?? null, fieldImmutable)];
}

/** ValidateObjectMetaAccessorUpdate: what an update may not change in metadata. */
export function validateObjectMetaUpdate(
  next: ObjectMeta,
  old: ObjectMeta,
  path = 'metadata',
  opts: MetaOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp !== undefined) {
    const before = new Set(asArray(old.finalizers).map(String));
    const extra = [...new Set(asArray(next.finalizers).map(String))]
      .filter((f) => !before.has(f))
      .sort();
    if (extra.length > 0)
      errs.push(
        fieldError.forbidden(
          child(path, 'finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`,
        ),
      );
  }
  if (!next.resourceVersion)
    errs.push(
      fieldError.invalid(child(path, 'resourceVersion'), '', 'must be specified for an update'),
    );
  if ((next.generation ?? 0) < (old.generation ?? 0))
    errs.push(
      fieldError.invalid(
        child(path, 'generation'),
        next.generation ?? 0,
        'must not be decremented',
      ),
    );
  errs.push(...immutable(next.name ?? '', old.name ?? '', child(path, 'name')));
  errs.push(...immutable(next.namespace ?? '', old.namespace ?? '', child(path, 'namespace')));
  errs.push(...immutable(next.uid ?? '', old.uid ?? '', child(path, 'uid')));
  errs.push(
    ...immutable(
      next.creationTimestamp,
      old.creationTimestamp,
      child(path, 'creationTimestamp'),
      goTime(next.creationTimestamp),
    ),
  );
  errs.push(
    ...immutable(
      next.deletionTimestamp,
      old.deletionTimestamp,
      child(path, 'deletionTimestamp'),
      goTime(next.deletionTimestamp),
    ),
  );
  errs.push(
    ...immutable(
      next.deletionGracePeriodSeconds,
      old.deletionGracePeriodSeconds,
      child(path, 'deletionGracePeriodSeconds'),
    ),
  );
  errs.push(...validateLabels(next.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(next.annotations, child(path, 'annotations')));
  errs.push(...validateOwnerReferences(next.ownerReferences, child(path, 'ownerReferences')));
  if (opts.kubeFinalizers)
    errs.push(
      ...kubeFinalizerNames(asArray(next.finalizers).map(String), child(path, 'finalizers')),
    );
  return errs;
}
