// pkg/registry/core/pod/strategy.go: status reset to Pending on create, ValidatePodCreate,
// ValidatePodUpdate, and ValidatePodStatusUpdate for the status subresource. QoS class and
// scheduling-gate conditions are not set (see docs/twin.md).

import {
  validatePodCreate,
  validatePodStatusUpdate,
  validatePodUpdate,
} from '../validation/pod.js';
import type { ResourceStrategy } from '../strategy.js';

export const podStrategy: ResourceStrategy = {
  prepareForCreate(pod) {
    pod['status'] = { phase: 'Pending' };
  },
  validate: validatePodCreate,
  validateUpdate: validatePodUpdate,
  validateStatusUpdate: validatePodStatusUpdate,
  allowUnconditionalUpdate: true,
};
