// leaseStrategy (pkg/registry/coordination/lease/strategy.go, 1.33): a PUT to a missing Lease
// creates it, an update must carry metadata.resourceVersion, and with the CoordinatedLeaderElection
// gate off (its 1.33 default: beta, disabled) spec.strategy and spec.preferredHolder are dropped
// unless the stored Lease already had them.

import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord } from '../../apimachinery/types.js';
import type { ResourceStrategy } from '../strategy.js';
import { validateLeaseSpec } from '../validation/lease.js';
import { nameIsDNSSubdomain } from '../validation/names.js';
import { metaStrategy, metaValidate, metaValidateUpdate } from './generic.js';

const meta = { namespaced: true, nameFn: nameIsDNSSubdomain, kubeFinalizers: true } as const;

const gatedFields = ['strategy', 'preferredHolder'] as const;

function dropGated(lease: KubeObject, old: KubeObject | undefined): void {
  if (lease['spec'] === undefined) return;
  const spec = { ...asRecord(lease['spec']) };
  const oldSpec = asRecord(old?.['spec']);
  for (const field of gatedFields) if (oldSpec[field] === undefined) delete spec[field];
  lease['spec'] = spec;
}

export const leaseStrategy: ResourceStrategy = metaStrategy(meta, {
  prepareForCreate: (lease) => dropGated(lease, undefined),
  prepareForUpdate: (lease, old) => dropGated(lease, old),
  validate: (lease) => [...metaValidate(lease, meta), ...validateLeaseSpec(lease)],
  validateUpdate: (lease, old) => [
    ...metaValidateUpdate(lease, old, meta),
    ...validateLeaseSpec(lease),
  ],
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
});
