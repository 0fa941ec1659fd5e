import { describe, expect, it } from 'vitest';
import { createClock } from '../../../../src/clock.js';
import { ApiError } from '../../../../src/apimachinery/errors.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { Registry } from '../../../../src/registry/registry.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import { ObjectStore } from '../../../../src/store/store.js';

const leases = resourceFor('leases');

function registry(): Registry {
  const r = new Registry(new ObjectStore(createClock()));
  r.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }]);
  return r;
}

const lease = (spec: Record<string, unknown>, meta: Partial<KubeObject['metadata']> = {}) =>
  ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'lock', namespace: 'kube-system', ...meta },
    spec,
  }) as KubeObject;

function failure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('Lease strategy', () => {
  it('creates a Lease on a PUT to a missing name', () => {
    const r = registry();
    const created = r.update(leases, lease({ holderIdentity: 'a' }), undefined);
    expect(created.metadata.resourceVersion).toBeDefined();
    expect(r.store.get(leases, 'kube-system', 'lock')).toBeDefined();
  });

  it('refuses an update without resourceVersion as store.go words it', () => {
    const r = registry();
    r.create(leases, lease({ holderIdentity: 'a' }));
    const e = failure(() => r.update(leases, lease({ holderIdentity: 'b' }), undefined));
    expect(e.code).toBe(422);
    expect(e.message).toBe(
      'leases.coordination.k8s.io "lock" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    expect(e.details).toEqual({
      name: 'lock',
      group: 'coordination.k8s.io',
      kind: 'leases',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0x0: must be specified for an update',
          field: 'metadata.resourceVersion',
        },
      ],
    });
  });

  it('validates the spec as ValidateLeaseSpec does', () => {
    const r = registry();
    const e = failure(() =>
      r.create(leases, lease({ leaseDurationSeconds: 0, leaseTransitions: -1 })),
    );
    expect(e.message).toBe(
      'Lease.coordination.k8s.io "lock" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
    );
  });

  it('drops strategy and preferredHolder while CoordinatedLeaderElection is off', () => {
    const r = registry();
    const created = r.create(
      leases,
      lease({ holderIdentity: 'a', strategy: 'Bogus', preferredHolder: 'b' }),
    );
    expect(created['spec']).toEqual({ holderIdentity: 'a' });
  });

  it('still validates a strategy the stored Lease already had', () => {
    const r = registry();
    r.store.load(leases, [lease({ strategy: 'OldestEmulationVersion' })]);
    const rv = r.store.get(leases, 'kube-system', 'lock')!.metadata.resourceVersion!;
    const e = failure(() =>
      r.update(leases, lease({ strategy: 'Newest' }, { resourceVersion: rv }), rv),
    );
    expect(e.message).toBe(
      'Lease.coordination.k8s.io "lock" is invalid: spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
    );
  });
});
