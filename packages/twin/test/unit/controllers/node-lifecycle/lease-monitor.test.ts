import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import { harness } from '../harness.js';

const leases = resourceFor('leases');
const events = resourceFor('events');

const ready = (node: KubeObject): Record<string, unknown> | undefined =>
  (node['status'] as { conditions: Record<string, unknown>[] }).conditions.find(
    (c) => c['type'] === 'Ready',
  );
const taints = (node: KubeObject): string[] =>
  ((node['spec'] as { taints?: { key: string; effect: string }[] }).taints ?? []).map(
    (t) => `${t.key}:${t.effect}`,
  );
const eventsFor = (h: Awaited<ReturnType<typeof harness>>, reason: string) =>
  h.store
    .list(events)
    .items.filter((e) => e['reason'] === reason)
    .map((e) => ({
      object: (e['involvedObject'] as { name: string }).name,
      source: e['source'],
      message: e['message'],
      count: e['count'],
    }));

describe('node Leases and the node lifecycle monitor', () => {
  it('keeps a renewed kube-node-lease Lease per node, owned by the Node', async () => {
    const h = await harness({ kubernetesVersion: 'v1.33.4' });
    const lease = h.store.get(leases, 'kube-node-lease', 'blue-1')!;
    expect(lease['spec']).toEqual({
      holderIdentity: 'blue-1',
      leaseDurationSeconds: 40,
      renewTime: '2025-08-20T10:00:00.000000Z',
    });
    expect(lease.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Node', name: 'blue-1', uid: h.node('blue-1').metadata.uid },
    ]);
    // Boot spreads the first renewals over one interval; then every 10 s (0.25 × 40 s) plus at
    // most 4% jitter.
    const renewals: number[] = [];
    let rv = lease.metadata.resourceVersion;
    for (let t = 0; t < 31_000; t += 100) {
      h.clock.advance(100);
      const now = h.store.get(leases, 'kube-node-lease', 'blue-1')!;
      if (now.metadata.resourceVersion === rv) continue;
      rv = now.metadata.resourceVersion;
      renewals.push(Date.parse((now['spec'] as { renewTime: string }).renewTime));
    }
    expect(renewals.length).toBeGreaterThanOrEqual(3);
    expect(renewals[0]! - Date.parse('2025-08-20T10:00:00Z')).toBeLessThan(10_000);
    for (let i = 1; i < renewals.length; i += 1) {
      const gap = renewals[i]! - renewals[i - 1]!;
      expect(gap).toBeGreaterThanOrEqual(10_000);
      expect(gap).toBeLessThanOrEqual(10_400);
    }
    h.controllers.stop();
  });

  it('marks a node whose kubelet stopped Unknown after the 50 s grace period', async () => {
    const h = await harness({ kubernetesVersion: 'v1.33.4', events: true });
    h.controllers.setKubeletDown('blue-1', true, true);
    h.clock.advance(50_000);
    expect(ready(h.node('blue-1'))?.['status']).toBe('True');
    h.clock.advance(6_000);
    expect(ready(h.node('blue-1'))).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastTransitionTime: '2025-08-20T10:00:55Z',
    });
    expect(taints(h.node('blue-1'))).toEqual([
      'node.kubernetes.io/unreachable:NoSchedule',
      'node.kubernetes.io/unreachable:NoExecute',
    ]);
    expect(ready(h.node('blue-2'))?.['status']).toBe('True');
    expect(eventsFor(h, 'NodeNotReady')).toContainEqual({
      object: 'blue-1',
      source: { component: 'node-controller' },
      message: 'Node blue-1 status is now: NodeNotReady',
      count: 1,
    });

    // The kubelet comes back: it renews its Lease and posts Ready.
    h.controllers.setKubeletDown('blue-1', false, true);
    expect(ready(h.node('blue-1'))?.['status']).toBe('True');
    h.clock.advance(100);
    expect(taints(h.node('blue-1'))).toEqual([]);
    expect(eventsFor(h, 'NodeReady')).toContainEqual({
      object: 'blue-1',
      source: { component: 'kubelet', host: 'blue-1' },
      message: 'Node blue-1 status is now: NodeReady',
      count: 1,
    });
    h.clock.advance(120_000);
    expect(ready(h.node('blue-1'))?.['status']).toBe('True');
    h.controllers.stop();
  });

  it('keeps a Lease but never renews it for a kubelet down at boot (spec.hosts)', async () => {
    const h = await harness({
      kubernetesVersion: 'v1.33.4',
      hosts: [{ match: 'legacy-1', faults: ['kubelet-down'] }],
    });
    const lease = h.store.get(leases, 'kube-node-lease', 'legacy-1')!;
    h.clock.advance(30_000);
    expect(h.store.get(leases, 'kube-node-lease', 'legacy-1')!.metadata.resourceVersion).toBe(
      lease.metadata.resourceVersion,
    );
    h.clock.advance(26_000);
    expect(ready(h.node('legacy-1'))?.['status']).toBe('Unknown');
    expect(ready(h.node('cp-1'))?.['status']).toBe('True');
    h.controllers.stop();
  });

  it('uses the 40 s grace period before 1.32', async () => {
    const h = await harness({ kubernetesVersion: 'v1.31.2' });
    h.controllers.setKubeletDown('blue-1', true, true);
    h.clock.advance(46_000);
    expect(ready(h.node('blue-1'))?.['status']).toBe('Unknown');
    h.controllers.stop();
  });

  it('counts a repeated kubelet NodeNotReady in one Event', async () => {
    const h = await harness({ events: true });
    h.controllers.setNodeReady('green-1', false);
    h.clock.advance(1_000);
    h.controllers.setNodeReady('green-1', true);
    h.clock.advance(1_000);
    h.controllers.setNodeReady('green-1', false);
    expect(eventsFor(h, 'NodeNotReady')).toEqual([
      {
        object: 'green-1',
        source: { component: 'kubelet', host: 'green-1' },
        message: 'Node green-1 status is now: NodeNotReady',
        count: 2,
      },
    ]);
    h.controllers.stop();
  });
});
