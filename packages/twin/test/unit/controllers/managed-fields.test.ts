import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { asRecord } from '../../../src/apimachinery/types.js';
import { resourceFor } from '../../../src/registry/resources.js';
import type { Harness } from './harness.js';
import { harness, nodes } from './harness.js';

let h: Harness;
afterEach(() => h.controllers.stop());

describe("the twin's own writes in managedFields", () => {
  it('records the DaemonSet controller as creator of its pods and the kubelet for their status', async () => {
    h = await harness();
    await h.controllers.settle();
    const pod = h.kubeProxyPods()[0];
    const entries = (pod?.metadata.managedFields ?? []).map((e) => [
      e['manager'],
      e['operation'],
      e['subresource'],
      Object.keys(e['fieldsV1'] as object),
    ]);
    expect(entries).toEqual([
      ['kube-controller-manager', 'Update', undefined, ['f:metadata', 'f:spec']],
      ['kubelet', 'Update', 'status', ['f:status']],
    ]);
  });

  it('leaves objects loaded from the scenario untracked, as objects without managedFields are', async () => {
    h = await harness();
    await h.controllers.settle();
    expect(h.ds().metadata.managedFields).toBeUndefined();
  });
});

describe('node Leases and node health in managedFields', () => {
  const leases = resourceFor('leases');
  const entries = (o: KubeObject | undefined) =>
    (o?.metadata.managedFields ?? []).map((e) => [e['manager'], e['operation'], e['subresource']]);

  it('records the kubelet on the Lease it creates and renews, and the node lifecycle controller on the node', async () => {
    h = await harness();
    h.registry.create(
      nodes,
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'green-9', labels: { pool: 'green' } } },
      { manager: 'kubectl-create' },
    );
    await h.controllers.settle();
    const lease = h.store.get(leases, 'kube-node-lease', 'green-9');
    expect(entries(lease)).toEqual([['kubelet', 'Update', undefined]]);
    expect(Object.keys(asRecord(lease?.metadata.managedFields?.[0]?.['fieldsV1']))).toEqual([
      'f:metadata',
      'f:spec',
    ]);
    h.clock.advance(11_000);
    const renewed = h.store.get(leases, 'kube-node-lease', 'green-9');
    expect(renewed?.metadata.resourceVersion).not.toBe(lease?.metadata.resourceVersion);
    expect(entries(renewed)).toEqual([['kubelet', 'Update', undefined]]);
    h.controllers.setKubeletDown('green-9', true, true);
    h.clock.advance(70_000);
    // The lease monitor's Unknown conditions (status) and the taints that follow them.
    expect(entries(h.node('green-9'))).toEqual([
      ['kubectl-create', 'Update', undefined],
      ['kube-controller-manager', 'Update', undefined],
      ['kube-controller-manager', 'Update', 'status'],
    ]);
  });
});
