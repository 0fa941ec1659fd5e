// pkg/registry/core/node/strategy.go: Nodes keep the status they are created with (the kubelet
// registers them that way), ValidateNode, ValidateNode + ValidateNodeUpdate on update, and
// ValidateNodeUpdate alone for the status subresource.

import { validateNode, validateNodeUpdate } from '../validation/node.js';
import type { ResourceStrategy } from '../strategy.js';

export const nodeStrategy: ResourceStrategy = {
  validate: validateNode,
  validateUpdate: (node, old) => [...validateNode(node), ...validateNodeUpdate(node, old)],
  validateStatusUpdate: validateNodeUpdate,
  allowUnconditionalUpdate: true,
};
