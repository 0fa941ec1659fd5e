import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord } from '../../../../src/apimachinery/types.js';
import type { Harness } from '../harness.js';
import { harness, pods } from '../harness.js';

let h: Harness;
afterEach(() => (h as Harness | undefined)?.controllers.stop());

const onNode = (node: string): KubeObject | undefined =>
  h.kubeProxyPods().find((p) => asRecord(p['spec'])['nodeName'] === node);
const conditions = (o: KubeObject | undefined): JsonObject[] =>
  (asRecord(o?.['status'])['conditions'] as JsonObject[] | undefined) ?? [];
const nodeCondition = (type: string): JsonObject | undefined =>
  conditions(h.node('blue-1')).find((c) => c['type'] === type);

function probe(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: 'blue-1', containers: [{ name: 'probe', image: 'debian:12' }] },
  };
}

describe('a node whose kubelet is down', () => {
  it('keeps a deleted pod Terminating, starts nothing, and turns Unknown after the grace period', async () => {
    const stopped: string[] = [];
    h = await harness({
      runtime: {
        start: () => ({ ok: true }),
        stop: (p) => void stopped.push(p.metadata.name ?? ''),
      },
    });
    h.registry.create(pods, probe('running'));
    await h.controllers.settle();
    const kp = onNode('blue-1')!;
    h.controllers.setKubeletDown('blue-1', true, true);
    expect(h.controllers.kubeletUp('blue-1')).toBe(false);
    h.registry.delete(pods, 'kube-system', kp.metadata.name ?? '');
    h.registry.create(pods, probe('stuck'));
    // The lease monitor notices within one renewal (10 s) and one monitor pass (5 s) of the
    // node-monitor-grace-period (50 s) after the kubelet stopped.
    h.clock.advance(39_999);
    const terminating = h.store.get(pods, 'kube-system', kp.metadata.name ?? '');
    expect(terminating?.metadata.deletionTimestamp).toBeDefined();
    expect(stopped).toEqual([]);
    // Pending with no status from a kubelet: no container statuses, no conditions.
    const stuck = h.store.get(pods, 'default', 'stuck')!;
    expect(asRecord(stuck['status'])).toEqual({ phase: 'Pending' });
    expect(nodeCondition('Ready')?.['status']).toBe('True');
    h.clock.advance(30_001);
    expect(nodeCondition('Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    expect(nodeCondition('MemoryPressure')?.['status']).toBe('Unknown');
    h.clock.advance(10);
    const taints = asRecord(h.node('blue-1')['spec'])['taints'] as JsonObject[];
    expect(taints.map((t) => [t['key'], t['effect']])).toEqual([
      ['node.kubernetes.io/unreachable', 'NoSchedule'],
      ['node.kubernetes.io/unreachable', 'NoExecute'],
    ]);
    // The node lifecycle controller marks its running pods not Ready.
    const marked = h.store.get(pods, 'default', 'running');
    expect(conditions(marked).find((c) => c['type'] === 'Ready')?.['status']).toBe('False');

    h.controllers.setKubeletDown('blue-1', false, true);
    expect(nodeCondition('Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    await h.controllers.settle();
    expect(stopped).toEqual([kp.metadata.name]);
    expect(h.store.get(pods, 'kube-system', kp.metadata.name ?? '')).toBeUndefined();
    expect(asRecord(h.store.get(pods, 'default', 'stuck')?.['status'])['phase']).toBe('Running');
    expect(onNode('blue-1')?.metadata.name).not.toBe(kp.metadata.name);
  });

  it('does not restart a container that exits while it is down', async () => {
    h = await harness();
    await h.controllers.settle();
    const name = onNode('green-1')?.metadata.name ?? '';
    h.controllers.setKubeletDown('green-1', true, true);
    expect(
      h.controllers.containerExited('kube-system', name, { exitCode: 1, reason: 'Error' }),
    ).toBe(true);
    h.clock.advance(30_000);
    const statuses = asRecord(onNode('green-1')?.['status'])['containerStatuses'] as JsonObject[];
    expect(statuses[0]).toMatchObject({ restartCount: 0, ready: true });
    expect(h.controllers.containerRunning(onNode('green-1')!)).toBe(false);
    h.controllers.setKubeletDown('green-1', false, true);
    await h.controllers.settle();
    const after = asRecord(onNode('green-1')?.['status'])['containerStatuses'] as JsonObject[];
    expect(after[0]).toMatchObject({ restartCount: 1, ready: true });
  });

  it('starts with the scenario’s kubelet-down hosts down', async () => {
    h = await harness({ hosts: [{ match: 'legacy-1', faults: ['kubelet-down'] }] });
    await h.controllers.settle();
    expect(h.controllers.kubeletUp('legacy-1')).toBe(false);
    expect(asRecord(onNode('legacy-1')?.['status'])).toEqual({ phase: 'Pending' });
    expect(asRecord(onNode('blue-1')?.['status'])['phase']).toBe('Running');
  });
});
