// The strategy of every served resource, keyed by plural. A resource without an entry gets the
// permissive default: no extra preparation or validation beyond the registry's object-meta rules.

import type { ResourceDef } from '../resources.js';
import type { ResourceStrategy } from '../strategy.js';
import { pdbStrategy } from './pdb.js';

const strategies: Readonly<Record<string, ResourceStrategy>> = {
  poddisruptionbudgets: pdbStrategy,
};

const permissive: ResourceStrategy = {};

export function strategyFor(def: ResourceDef): ResourceStrategy {
  return strategies[def.plural] ?? permissive;
}
