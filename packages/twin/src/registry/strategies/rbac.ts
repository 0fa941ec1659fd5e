// pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/strategy.go: no status,
// PUT without a resourceVersion allowed, the validation of validation/rbac.ts.

import { validateObjectMetaUpdate } from '../validation/object-meta.js';
import {
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
} from '../validation/rbac.js';
import type { ResourceStrategy } from '../strategy.js';

function roleStrategy(namespaced: boolean): ResourceStrategy {
  return {
    validate: (role) => validateRole(role, namespaced),
    validateUpdate: (role, old) => [
      ...validateRole(role, namespaced),
      ...validateObjectMetaUpdate(role.metadata, old.metadata, 'metadata'),
    ],
    allowUnconditionalUpdate: true,
  };
}

function bindingStrategy(namespaced: boolean): ResourceStrategy {
  return {
    validate: (binding) => validateRoleBinding(binding, namespaced),
    validateUpdate: (binding, old) => validateRoleBindingUpdate(binding, old, namespaced),
    allowUnconditionalUpdate: true,
  };
}

export const roleStrategies = {
  roles: roleStrategy(true),
  clusterroles: roleStrategy(false),
  rolebindings: bindingStrategy(true),
  clusterrolebindings: bindingStrategy(false),
} as const;
