/**
 * Whether applying an action would change nothing: a plan computed against objects it already
 * wrote must come out all unchanged, or every run would rewrite (and restart) what it made.
 * Live objects carry API defaults, so "unchanged" means every planned field is there as planned.
 */
import type { ClusterAction } from './actions.js';
import { isDict } from './safe-yaml.js';

/** `want` is a part of `have`: every key of want is in have with a contained value. */
export function contains(have: unknown, want: unknown): boolean {
  if (Array.isArray(want)) {
    return (
      Array.isArray(have) &&
      have.length === want.length &&
      want.every((w, i) => contains(have[i], w))
    );
  }
  if (isDict(want)) {
    return (
      isDict(have) &&
      Object.entries(want).every(([k, w]) => w === undefined || contains(have[k], w))
    );
  }
  return have === want;
}

export function isUnchanged(action: ClusterAction): boolean {
  switch (action.kind) {
    case 'ensure-configmap':
      return (
        action.previous !== null &&
        JSON.stringify(action.previous.data) === JSON.stringify(action.desired.data) &&
        contains(action.previous.labels, action.desired.labels) &&
        contains(action.previous.annotations, action.desired.annotations)
      );
    case 'ensure-daemonset':
      return (
        action.previous !== null &&
        contains(action.previous.manifest.spec, action.desired.spec) &&
        contains(action.previous.manifest.metadata, action.desired.metadata)
      );
    case 'set-update-strategy':
      return (
        action.previous.type === action.strategy.type &&
        contains(action.previous.rollingUpdate, action.strategy.rollingUpdate)
      );
    case 'set-node-affinity':
      return JSON.stringify(action.previous) === JSON.stringify(action.required);
    case 'label-node':
      return action.previous === action.value;
    default:
      return false;
  }
}
