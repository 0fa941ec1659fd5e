// pkg/registry/networking/networkpolicy/strategy.go: generation 1 on create, bumped on spec
// changes (the registry's hasGeneration), PUT without a resourceVersion allowed.

import type { ResourceStrategy } from '../strategy.js';
import {
  validateNetworkPolicy,
  validateNetworkPolicyUpdate,
} from '../validation/network-policy.js';

export const networkPolicyStrategy: ResourceStrategy = {
  validate: validateNetworkPolicy,
  validateUpdate: validateNetworkPolicyUpdate,
  allowUnconditionalUpdate: true,
};
