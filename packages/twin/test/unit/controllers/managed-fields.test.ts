import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { asRecord, cloneJson } from '../../../src/apimachinery/types.js';
import { evictPod } from '../../../src/registry/policy/eviction.js';
import { resourceFor } from '../../../src/registry/resources.js';
import type { Harness } from './harness.js';
import { harness, nodes, pods } from './harness.js';

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

describe('garbage collection, budgets and evictions in managedFields', () => {
  const configmaps = resourceFor('configmaps');
  const pdbs = resourceFor('poddisruptionbudgets');
  const entries = (o: KubeObject | undefined) =>
    (o?.metadata.managedFields ?? []).map((e) => [e['manager'], e['operation'], e['subresource']]);
  const web = 'web-5d8f9c7b6d-h2x8r';

  it('removes a dangling reference as kube-controller-manager, so its creator owns it no more', async () => {
    h = await harness();
    await h.controllers.settle();
    const cp = h.node('cp-1').metadata.uid ?? '';
    const ref = (name: string, uid: string) => ({ apiVersion: 'v1', kind: 'Node', name, uid });
    h.registry.create(
      configmaps,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'two-owners',
          namespace: 'default',
          ownerReferences: [ref('cp-1', cp), ref('gone', 'no-such-uid')],
        },
      },
      { manager: 'kubectl-create' },
    );
    await h.controllers.settle();
    const cm = h.store.get(configmaps, 'default', 'two-owners');
    expect(cm?.metadata.ownerReferences).toEqual([ref('cp-1', cp)]);
    const fields = asRecord(asRecord(cm?.metadata.managedFields?.[0]?.['fieldsV1'])['f:metadata']);
    expect(Object.keys(asRecord(fields['f:ownerReferences']))).toEqual(['.', `k:{"uid":"${cp}"}`]);
  });

  it('writes budget status as kube-controller-manager, and an eviction spends it as kube-apiserver', async () => {
    h = await harness();
    await h.controllers.settle();
    h.registry.create(
      pdbs,
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'web', namespace: 'default' },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      },
      { manager: 'kubectl-create' },
    );
    h.clock.advance(0);
    // Sorted as upstream: same operation and second, so by manager name.
    expect(entries(h.store.get(pdbs, 'default', 'web'))).toEqual([
      ['kube-controller-manager', 'Update', 'status'],
      ['kubectl-create', 'Update', undefined],
    ]);
    evictPod(h.registry, 'default', web, {
      eviction: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: web } },
      dryRun: [],
    });
    expect(entries(h.store.get(pdbs, 'default', 'web'))).toContainEqual([
      'kube-apiserver',
      'Update',
      'status',
    ]);
  });

  it('marks a pod for taint-based eviction as kube-controller-manager', async () => {
    h = await harness();
    // Scenario pods are untracked (skipNonAppliedManager); one created with a manager is not.
    h.registry.create(
      pods,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'tracked', namespace: 'default' },
        spec: { nodeName: 'blue-2', containers: [{ name: 'c', image: 'busybox:1.36' }] },
      },
      { manager: 'kubectl-run' },
    );
    await h.controllers.settle();
    const live = cloneJson(h.node('blue-2'));
    const spec = asRecord(live['spec']);
    spec['taints'] = [{ key: 'example.com/maintenance', effect: 'NoExecute' }];
    h.registry.update(nodes, { ...live, spec }, undefined);
    h.clock.advance(0);
    const pod = h.store.get(pods, 'default', 'tracked');
    expect(pod?.metadata.deletionTimestamp).toBeDefined();
    expect(entries(pod)).toEqual([
      ['kubectl-run', 'Update', undefined],
      ['kube-controller-manager', 'Update', 'status'],
      ['kubelet', 'Update', 'status'],
    ]);
  });
});
