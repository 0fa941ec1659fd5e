// PodDisruptionBudget writes through the registry: the strategy resets status on create, and
// ValidatePodDisruptionBudgetSpec's messages reach the 422 byte for byte.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/apimachinery/errors.js';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { createManualClock } from '../../../../src/clock.js';
import { toTable } from '../../../../src/printers/table.js';
import { Registry } from '../../../../src/registry/registry.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import { ObjectStore } from '../../../../src/store/store.js';

const pdbs = resourceFor('poddisruptionbudgets');

function registry(): Registry {
  const r = new Registry(new ObjectStore(createManualClock()));
  r.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }]);
  return r;
}

const pdb = (spec: JsonObject, status?: JsonObject): KubeObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec,
  ...(status ? { status } : {}),
});

function message(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return `${error.code} ${error.message}`;
    throw error;
  }
  return 'no error';
}

const selector = { matchLabels: { app: 'web' } };

describe('PodDisruptionBudget strategy and validation', () => {
  it('creates with the zero status and generation 1, whatever the body says', () => {
    const created = registry().create(
      pdbs,
      pdb({ minAvailable: 1, selector }, { disruptionsAllowed: 5 }),
    );
    expect(created['status']).toEqual({
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    });
    expect(created.metadata.generation).toBe(1);
  });

  it('refuses minAvailable together with maxUnavailable', () => {
    expect(
      message(() => registry().create(pdbs, pdb({ minAvailable: 1, maxUnavailable: 1, selector }))),
    ).toBe(
      '422 PodDisruptionBudget.policy "web" is invalid: spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000a1e0a0), Selector:(*v1.LabelSelector)(0xc000a1e0c0), MaxUnavailable:(*intstr.IntOrString)(0xc000a1e0b0), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
    );
  });

  it('words bad counts and percentages as apps validation does', () => {
    const r = registry();
    expect(message(() => r.create(pdbs, pdb({ minAvailable: -1, selector })))).toBe(
      '422 PodDisruptionBudget.policy "web" is invalid: spec.minAvailable: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(message(() => r.create(pdbs, pdb({ maxUnavailable: '120%', selector })))).toBe(
      '422 PodDisruptionBudget.policy "web" is invalid: spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%',
    );
    expect(message(() => r.create(pdbs, pdb({ maxUnavailable: 'half', selector })))).toBe(
      `422 PodDisruptionBudget.policy "web" is invalid: spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    );
  });

  it('validates the selector and the unhealthyPodEvictionPolicy enum', () => {
    const r = registry();
    const bad = {
      minAvailable: 1,
      selector: { matchExpressions: [{ key: 'app', operator: 'Within', values: ['web'] }] },
      unhealthyPodEvictionPolicy: 'Sometimes',
    };
    expect(message(() => r.create(pdbs, pdb(bad)))).toBe(
      '422 PodDisruptionBudget.policy "web" is invalid: [spec.selector.matchExpressions[0].operator: Invalid value: "Within": not a valid selector operator, spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"]',
    );
    expect(
      message(() =>
        r.create(pdbs, pdb({ minAvailable: 1, selector: { matchLabels: { 'bad key': 'v' } } })),
      ),
    ).toBe(
      `422 PodDisruptionBudget.policy "web" is invalid: spec.selector.matchLabels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  });

  it('needs a resourceVersion on PUT and bumps the generation on a spec change only', () => {
    const r = registry();
    const created = r.create(pdbs, pdb({ minAvailable: 1, selector }));
    expect(message(() => r.update(pdbs, created, undefined))).toBe(
      '422 poddisruptionbudgets.policy "web" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    const relabelled = r.update(
      pdbs,
      { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } },
      created.metadata.resourceVersion,
    );
    expect(relabelled.metadata.generation).toBe(1);
    const changed = r.update(
      pdbs,
      { ...relabelled, spec: { minAvailable: 2, selector } },
      relabelled.metadata.resourceVersion,
    );
    expect(changed.metadata.generation).toBe(2);
    expect(
      message(() =>
        r.update(
          pdbs,
          { ...changed, status: { disruptionsAllowed: -1 } },
          changed.metadata.resourceVersion,
          {
            subresource: 'status',
          },
        ),
      ),
    ).toBe(
      '422 PodDisruptionBudget.policy "web" is invalid: status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
    );
  });

  it('prints MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED DISRUPTIONS and AGE', () => {
    const r = registry();
    const a = r.create(pdbs, pdb({ minAvailable: 1, selector }));
    const b = r.create(pdbs, {
      ...pdb({ maxUnavailable: '25%', selector }),
      metadata: { name: 'b', namespace: 'default' },
    });
    const now = Date.parse(a.metadata.creationTimestamp ?? '') + 90_000;
    const table = toTable(pdbs, [a, b], { include: 'None', now, resourceVersion: '1' });
    expect((table['columnDefinitions'] as JsonObject[]).map((c) => c['name'])).toEqual([
      'Name',
      'Min Available',
      'Max Unavailable',
      'Allowed Disruptions',
      'Age',
    ]);
    expect((table['rows'] as JsonObject[]).map((row) => row['cells'])).toEqual([
      ['web', '1', 'N/A', 0, '90s'],
      ['b', 'N/A', '25%', 0, '90s'],
    ]);
  });
});
