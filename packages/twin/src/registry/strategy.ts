// What pkg/registry's per-resource strategies decide, as one interface: what the apiserver
// changes on create and update, what it validates, and whether PUT may create or skip the
// resourceVersion. Each served resource gets one (strategies/index.ts); the registry calls it on
// every write, dry runs included, so a dry run answers exactly as the real write would.
//
// The registry itself runs what rest.BeforeCreate / BeforeUpdate run for every kind (generic
// ObjectMeta rules with path-segment names, validation/object-meta.ts); a strategy's validate
// adds the kind's own rules, including ObjectMeta with its NameFunc (strategies/generic.ts).

import type { FieldError } from '../apimachinery/field-errors.js';
import type { KubeObject } from '../apimachinery/types.js';

export interface ResourceStrategy {
  /** PrepareForCreate: reset what users may not set (status), set generation and annotations. */
  prepareForCreate?(obj: KubeObject): void;
  /** PrepareForUpdate: keep what users may not change, bump generation on spec changes. */
  prepareForUpdate?(obj: KubeObject, old: KubeObject): void;
  /** Validate, after defaulting and PrepareForCreate. */
  validate?(obj: KubeObject): FieldError[];
  /** ValidateUpdate, after defaulting and PrepareForUpdate: immutable fields and transitions. */
  validateUpdate?(obj: KubeObject, old: KubeObject): FieldError[];
  /** The status strategy's ValidateUpdate, for writes to the status subresource. */
  validateStatusUpdate?(obj: KubeObject, old: KubeObject): FieldError[];
  /** Makes a scenario object look as if this apiserver had written it (no validation). */
  prepareForSeed?(obj: KubeObject): void;
  /** AllowCreateOnUpdate: a PUT to a missing object creates it (Leases, for example). */
  allowCreateOnUpdate?: boolean;
  /** AllowUnconditionalUpdate: false makes a PUT without metadata.resourceVersion a 422. */
  allowUnconditionalUpdate?: boolean;
}
