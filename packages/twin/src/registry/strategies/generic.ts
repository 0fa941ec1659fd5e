// The strategy of a kind whose only rules are ObjectMeta's, with its NameFunc: what most
// Validate/ValidateUpdate functions in pkg/apis/*/validation reduce to for the kinds the twin
// serves without more rules. Other strategies start from it.

import type { FieldError } from '../../apimachinery/field-errors.js';
import type { KubeObject } from '../../apimachinery/types.js';
import type { NameFunc } from '../validation/names.js';
import {
  validateObjectMeta,
  validateObjectMetaUpdate,
  type MetaOptions,
} from '../validation/object-meta.js';
import type { ResourceStrategy } from '../strategy.js';

export interface MetaStrategyOptions extends MetaOptions {
  namespaced: boolean;
  nameFn: NameFunc;
}

export function metaValidate(obj: KubeObject, opts: MetaStrategyOptions): FieldError[] {
  return validateObjectMeta(obj.metadata, opts.namespaced, opts.nameFn, 'metadata', opts);
}

/** ValidateXUpdate for such kinds: the metadata update rules, then the create rules again. */
export function metaValidateUpdate(
  obj: KubeObject,
  old: KubeObject,
  opts: MetaStrategyOptions,
): FieldError[] {
  return [
    ...validateObjectMetaUpdate(obj.metadata, old.metadata, 'metadata', opts),
    ...metaValidate(obj, opts),
  ];
}

export function metaStrategy(
  opts: MetaStrategyOptions,
  extra: ResourceStrategy = {},
): ResourceStrategy {
  return {
    validate: (obj) => metaValidate(obj, opts),
    validateUpdate: (obj, old) => metaValidateUpdate(obj, old, opts),
    validateStatusUpdate: (obj, old) =>
      validateObjectMetaUpdate(obj.metadata, old.metadata, 'metadata', opts),
    ...extra,
  };
}
