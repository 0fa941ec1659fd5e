import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord, cloneJson } from '../../../../src/apimachinery/types.js';
import type { Harness } from '../harness.js';
import { harness, nodes, pods } from '../harness.js';

let h: Harness;
afterEach(() => (h as Harness | undefined)?.controllers.stop());

function probe(name: string, spec: JsonObject = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      hostNetwork: true,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 0,
      tolerations: [{ operator: 'Exists' }],
      containers: [{ name: 'probe', image: 'busybox:1.36', command: ['sleep', '900'] }],
      ...spec,
    },
  };
}

const get = (name: string): KubeObject | undefined => h.store.get(pods, 'default', name);
const status = (name: string): JsonObject => asRecord(get(name)?.['status']);

describe('pods other than DaemonSet pods', () => {
  it('runs a probe pod pinned to a node and deletes it at once with grace 0', async () => {
    h = await harness();
    h.registry.create(pods, probe('probe-a', { nodeName: 'legacy-1' }));
    h.clock.advance(100);
    expect(status('probe-a')['phase']).toBe('Pending');
    await h.controllers.settle();
    expect(status('probe-a')).toMatchObject({
      phase: 'Running',
      podIP: '10.0.3.31',
      hostIP: '10.0.3.31',
    });
    h.registry.delete(pods, 'default', 'probe-a');
    expect(get('probe-a')).toBeUndefined();
  });

  it('fails a pod past its activeDeadlineSeconds', async () => {
    h = await harness();
    h.registry.create(pods, probe('probe-b', { nodeName: 'blue-1', activeDeadlineSeconds: 600 }));
    await h.controllers.settle();
    expect(status('probe-b')['phase']).toBe('Running');
    h.clock.advance(600_000);
    expect(status('probe-b')).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded' });
  });

  it('fails a restartPolicy Never pod whose container exits', async () => {
    h = await harness({
      runtime: {
        start: () => ({ ok: false, exitCode: 127, reason: 'Error' }),
        stop: () => undefined,
      },
    });
    h.registry.create(pods, probe('probe-c', { nodeName: 'blue-1' }));
    await h.controllers.settle();
    expect(status('probe-c')['phase']).toBe('Failed');
    const [container] = status('probe-c')['containerStatuses'] as JsonObject[];
    expect(container).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 127 } } });
  });

  it('binds a pod without a node to a fitting, schedulable node', async () => {
    h = await harness();
    for (const name of ['blue-1', 'blue-2', 'green-1', 'green-2', 'legacy-1']) {
      const node = cloneJson(h.store.get(nodes, undefined, name)!);
      if (name !== 'green-2') asRecord(node['spec'])['unschedulable'] = true;
      h.registry.update(nodes, node, undefined);
    }
    h.registry.create(pods, probe('web', { tolerations: [] }));
    await h.controllers.settle();
    // cp-1 keeps its control-plane taint, the others are cordoned.
    expect(asRecord(get('web')?.['spec'])['nodeName']).toBe('green-2');
    expect(status('web')['phase']).toBe('Running');
    const cordoned = h.store.get(nodes, undefined, 'blue-1')!;
    expect(asRecord(cordoned['spec'])['taints']).toEqual([
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
    ]);
    // DaemonSet pods stay on cordoned nodes.
    expect(asRecord(h.ds()['status'])['desiredNumberScheduled']).toBe(6);
  });

  it('leaves an unschedulable pod Pending with the scheduler message', async () => {
    h = await harness();
    h.registry.create(pods, probe('nowhere', { tolerations: [], nodeSelector: { disk: 'nvme' } }));
    await h.controllers.settle();
    const scheduled = (status('nowhere')['conditions'] as JsonObject[]).find(
      (c) => c['type'] === 'PodScheduled',
    );
    expect(scheduled).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: "0/6 nodes are available: 6 node(s) didn't match Pod's node affinity/selector.",
    });
  });
});
