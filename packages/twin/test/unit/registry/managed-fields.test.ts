import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { createManualClock } from '../../../src/clock.js';
import { Registry } from '../../../src/registry/registry.js';
import { resourceFor } from '../../../src/registry/resources.js';
import { ObjectStore } from '../../../src/store/store.js';

const namespaces = resourceFor('namespaces');
const configmaps = resourceFor('configmaps');
const pods = resourceFor('pods');

function registry(): Registry {
  const r = new Registry(new ObjectStore(createManualClock()));
  r.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }]);
  return r;
}

const cm = (data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default' },
  data,
});

const managers = (o: KubeObject): unknown[] =>
  (o.metadata.managedFields ?? []).map((e) => [e['manager'], e['operation'], e['subresource']]);

describe('the registry records the writer of every write', () => {
  it('records creates and updates by manager, and leaves managerless writes alone', () => {
    const r = registry();
    const created = r.create(configmaps, cm({ a: '1' }), { manager: 'kubectl-create' });
    expect(managers(created)).toEqual([['kubectl-create', 'Update', undefined]]);
    const edited = r.update(configmaps, { ...created, data: { a: '2' } }, undefined, {
      manager: 'kubectl-edit',
    });
    // The creator keeps the map it added; the editor takes the value it changed.
    expect(managers(edited)).toEqual([
      ['kubectl-create', 'Update', undefined],
      ['kubectl-edit', 'Update', undefined],
    ]);
    const internal = r.update(configmaps, { ...edited, data: { a: '3' } }, undefined);
    expect(internal.metadata.managedFields).toEqual(edited.metadata.managedFields);
    expect(r.store.get(namespaces, undefined, 'default')?.metadata.managedFields).toBeUndefined();
  });

  it('keys status writes by subresource, and records a dry run as the write would', () => {
    const r = registry();
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    const created = r.create(pods, pod, { manager: 'kube-controller-manager' });
    const dry = r.update(pods, { ...created, status: { phase: 'Running' } }, undefined, {
      subresource: 'status',
      manager: 'kubelet',
      dryRun: true,
    });
    expect(managers(dry)).toContainEqual(['kubelet', 'Update', 'status']);
    expect(managers(r.store.get(pods, 'default', 'p')!)).toEqual([
      ['kube-controller-manager', 'Update', undefined],
    ]);
  });
});
