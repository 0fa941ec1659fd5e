// pkg/registry/core/configmap/strategy.go: ValidateConfigMap and ValidateConfigMapUpdate.

import { validateConfigMap, validateConfigMapUpdate } from '../validation/configmap.js';
import type { ResourceStrategy } from '../strategy.js';

export const configMapStrategy: ResourceStrategy = {
  validate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
  allowUnconditionalUpdate: true,
};
