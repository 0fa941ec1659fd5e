import { afterEach, describe, expect, it } from 'vitest';
import type { PodRuntime } from '../../../../src/controllers/index.js';
import { crashBackoffMs } from '../../../../src/controllers/index.js';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord } from '../../../../src/apimachinery/types.js';
import type { Harness } from '../harness.js';
import { harness, pods } from '../harness.js';

let h: Harness;
afterEach(() => (h as Harness | undefined)?.controllers.stop());

const onNode = (node: string): KubeObject =>
  h.kubeProxyPods().find((p) => asRecord(p['spec'])['nodeName'] === node)!;
const status = (p: KubeObject): JsonObject => asRecord(p['status']);
const container = (p: KubeObject): JsonObject =>
  (status(p)['containerStatuses'] as JsonObject[] | undefined)?.[0] ?? {};
const condition = (p: KubeObject, type: string): string | undefined =>
  (status(p)['conditions'] as JsonObject[] | undefined)?.find((c) => c['type'] === type)?.[
    'status'
  ] as string | undefined;

describe('crash backoff', () => {
  it('doubles from 10 s after an immediate first restart, capped at 5 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(crashBackoffMs)).toEqual([
      0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
  });

  it('restarts a crashing kube-proxy with CrashLoopBackOff and a growing restartCount', async () => {
    const attempts: number[] = [];
    let t0 = 0;
    const runtime: PodRuntime = {
      start(pod) {
        if (asRecord(pod['spec'])['nodeName'] !== 'legacy-1') return { ok: true };
        attempts.push(h.clock.now() - t0);
        return { ok: false, exitCode: 1, reason: 'Error', message: 'failed to run' };
      },
      stop: () => undefined,
    };
    h = await harness({ runtime });
    t0 = h.clock.now();
    h.clock.advance(2000);
    let pod = onNode('legacy-1');
    expect(container(pod)).toMatchObject({ restartCount: 0, ready: false, started: false });
    expect(container(pod)['state']).toMatchObject({ terminated: { exitCode: 1, reason: 'Error' } });
    expect(status(pod)['phase']).toBe('Running');
    h.clock.advance(1000);
    pod = onNode('legacy-1');
    expect(container(pod)['restartCount']).toBe(1);
    expect(container(pod)['state']).toMatchObject({
      waiting: {
        reason: 'CrashLoopBackOff',
        message: expect.stringContaining('back-off 10s restarting failed container=kube-proxy'),
      },
    });
    expect(container(pod)['lastState']).toMatchObject({
      terminated: { exitCode: 1, message: 'failed to run' },
    });
    h.clock.advance(20 * 60_000 + 10_000);
    expect(attempts).toEqual([
      2000, 3000, 13_000, 33_000, 73_000, 153_000, 313_000, 613_000, 913_000, 1_213_000,
    ]);
    expect(container(onNode('legacy-1'))['restartCount']).toBe(9);
    // The DaemonSet sees a scheduled but unready pod.
    expect(asRecord(h.ds()['status'])).toMatchObject({
      numberReady: 5,
      numberAvailable: 5,
      numberUnavailable: 1,
    });
  });

  it('reports Running and Ready again once the runtime lets it start', async () => {
    let broken = true;
    h = await harness({
      runtime: {
        start: () => (broken ? { ok: false, exitCode: 2, reason: 'Error' } : { ok: true }),
        stop: () => undefined,
      },
    });
    h.clock.advance(15_000);
    broken = false;
    h.clock.advance(60_000);
    const pod = onNode('blue-1');
    expect(container(pod)).toMatchObject({ ready: true, started: true, restartCount: 3 });
    expect(container(pod)['lastState']).toMatchObject({ terminated: { exitCode: 2 } });
  });

  it('restarts a container that exits while running', async () => {
    h = await harness();
    await h.controllers.settle();
    const name = onNode('green-1').metadata.name!;
    expect(
      h.controllers.containerExited('kube-system', name, { exitCode: 137, reason: 'OOMKilled' }),
    ).toBe(true);
    h.clock.advance(10);
    expect(container(onNode('green-1'))['state']).toMatchObject({
      terminated: { exitCode: 137, reason: 'OOMKilled' },
    });
    await h.controllers.settle();
    expect(container(onNode('green-1'))).toMatchObject({ ready: true, restartCount: 1 });
  });
});

describe('pod deletion', () => {
  it('is graceful: Terminating while the containers stop, then gone', async () => {
    const stopped: string[] = [];
    h = await harness({
      runtime: {
        start: () => ({ ok: true }),
        stop: (pod) => {
          stopped.push(pod.metadata.name!);
        },
      },
    });
    await h.controllers.settle();
    const name = onNode('blue-2').metadata.name!;
    h.registry.delete(pods, 'kube-system', name);
    const marked = h.store.get(pods, 'kube-system', name)!;
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(status(marked)['phase']).toBe('Running');
    h.clock.advance(500);
    expect(stopped).toEqual([name]);
    expect(h.store.get(pods, 'kube-system', name)).toBeDefined();
    h.clock.advance(1000);
    expect(h.store.get(pods, 'kube-system', name)).toBeUndefined();
  });

  it('waits as long as the runtime says, up to the grace period', async () => {
    h = await harness({ runtime: { start: () => ({ ok: true }), stop: () => 45_000 } });
    await h.controllers.settle();
    const name = onNode('blue-2').metadata.name!;
    h.registry.delete(pods, 'kube-system', name);
    h.clock.advance(29_000);
    expect(h.store.get(pods, 'kube-system', name)).toBeDefined();
    h.clock.advance(1500);
    expect(h.store.get(pods, 'kube-system', name)).toBeUndefined();
  });

  it('removes at once with grace period 0, and the DaemonSet replaces the pod', async () => {
    h = await harness();
    await h.controllers.settle();
    const name = onNode('cp-1').metadata.name!;
    h.registry.delete(pods, 'kube-system', name, { gracePeriodSeconds: 0 });
    expect(h.store.get(pods, 'kube-system', name)).toBeUndefined();
    await h.controllers.settle();
    expect(onNode('cp-1').metadata.name).not.toBe(name);
    expect(condition(onNode('cp-1'), 'Ready')).toBe('True');
  });
});

describe('node readiness', () => {
  it('turns a not-ready host NotReady, taints it and keeps its pods unready', async () => {
    h = await harness({ hosts: [{ match: 'label:node-pool=green', faults: ['not-ready'] }] });
    await h.controllers.settle();
    const node = h.node('green-1');
    const ready = (status(node)['conditions'] as JsonObject[]).find((c) => c['type'] === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'KubeletNotReady' });
    expect(asRecord(node['spec'])['taints']).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      expect.objectContaining({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }),
    ]);
    expect(condition(onNode('green-1'), 'Ready')).toBe('False');
    expect(condition(onNode('blue-1'), 'Ready')).toBe('True');
    expect(asRecord(h.ds()['status'])).toMatchObject({ desiredNumberScheduled: 6, numberReady: 4 });

    h.controllers.setNodeReady('green-1', true);
    await h.controllers.settle();
    expect(condition(onNode('green-1'), 'Ready')).toBe('True');
    expect(asRecord(h.node('green-1')['spec'])['taints']).toBeUndefined();
  });

  it('marks scenario pods on a NotReady node not Ready', async () => {
    h = await harness();
    await h.controllers.settle();
    h.controllers.setNodeReady('cp-1', false);
    await h.controllers.settle();
    const etcd = h.store.get(pods, 'kube-system', 'etcd-cp-1')!;
    expect(condition(etcd, 'Ready')).toBe('False');
  });
});
