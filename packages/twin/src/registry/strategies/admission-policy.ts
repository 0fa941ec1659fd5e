// pkg/registry/admissionregistration/validatingadmissionpolicy{,binding}/strategy.go: the
// policy's status is reset on create and kept on update, generation bumps on spec changes
// (hasGeneration), and both validate after the v1 defaults (validation/admission-policy.ts).

import { validateObjectMetaUpdate } from '../validation/object-meta.js';
import {
  defaultBinding,
  defaultPolicy,
  validateBinding,
  validatePolicy,
} from '../validation/admission-policy.js';
import type { ResourceStrategy } from '../strategy.js';

export const admissionPolicyStrategy: ResourceStrategy = {
  prepareForCreate(policy) {
    delete policy['status'];
    defaultPolicy(policy);
  },
  prepareForUpdate(policy, old) {
    if (old['status'] === undefined) delete policy['status'];
    else policy['status'] = old['status'];
    defaultPolicy(policy);
  },
  prepareForSeed: defaultPolicy,
  validate: validatePolicy,
  validateUpdate: (policy, old) => [
    ...validatePolicy(policy),
    ...validateObjectMetaUpdate(policy.metadata, old.metadata, 'metadata'),
  ],
  allowUnconditionalUpdate: true,
};

export const admissionPolicyBindingStrategy: ResourceStrategy = {
  prepareForCreate: defaultBinding,
  prepareForUpdate: (binding) => defaultBinding(binding),
  prepareForSeed: defaultBinding,
  validate: validateBinding,
  validateUpdate: (binding, old) => [
    ...validateBinding(binding),
    ...validateObjectMetaUpdate(binding.metadata, old.metadata, 'metadata'),
  ],
  allowUnconditionalUpdate: true,
};
