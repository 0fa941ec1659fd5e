import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord } from '../../../../src/apimachinery/types.js';
import type { PodRuntime } from '../../../../src/controllers/index.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import { nextSyncDelayMs } from '../../../../src/controllers/kubelet/configmap-volumes.js';
import { readinessDelayMs } from '../../../../src/controllers/kubelet/readiness.js';
import { terminationMessage } from '../../../../src/controllers/kubelet/termination-message.js';
import type { Harness } from '../harness.js';
import { harness, pods } from '../harness.js';

let h: Harness;
afterEach(() => (h as Harness | undefined)?.controllers.stop());

const configmaps = resourceFor('configmaps');

function pod(name: string, container: JsonObject = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName: 'blue-1',
      containers: [{ name: 'c', image: 'debian:12', command: ['sleep', '900'], ...container }],
    },
  };
}

const status = (name: string): JsonObject =>
  asRecord(h.store.get(pods, 'default', name)?.['status']);
const ready = (name: string): unknown =>
  (status(name)['containerStatuses'] as JsonObject[] | undefined)?.[0]?.['ready'];

describe('readiness', () => {
  it('is immediate without a readiness probe, and waits for the first probe with one', async () => {
    expect(readinessDelayMs(pod('x'))).toBe(0);
    const probe = { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 15, periodSeconds: 10 };
    expect(readinessDelayMs(pod('x', { readinessProbe: probe }))).toBe(20_000);
    expect(readinessDelayMs(pod('x', { readinessProbe: { exec: { command: ['true'] } } }))).toBe(0);
    h = await harness();
    h.registry.create(pods, pod('plain'));
    h.registry.create(pods, pod('probed', { readinessProbe: probe }));
    h.clock.advance(1999);
    expect(status('plain')['phase']).toBe('Pending');
    h.clock.advance(1);
    expect(status('plain')['phase']).toBe('Running');
    expect(ready('plain')).toBe(true);
    expect(ready('probed')).toBe(false);
    h.clock.advance(19_999);
    expect(ready('probed')).toBe(false);
    h.clock.advance(1);
    expect(ready('probed')).toBe(true);
  });
});

describe('ConfigMap volumes', () => {
  it('count syncs from the pod’s first sync', () => {
    expect(nextSyncDelayMs(0, 0, 60_000)).toBe(60_000);
    expect(nextSyncDelayMs(0, 10_000, 60_000)).toBe(50_000);
    expect(nextSyncDelayMs(0, 60_000, 60_000)).toBe(60_000);
    expect(nextSyncDelayMs(0, 5, 0)).toBe(0);
  });

  it('reach running pods at their next sync, once per sync', async () => {
    const updates: { pod: string; names: readonly string[]; at: number }[] = [];
    const runtime: PodRuntime = {
      start: () => ({ ok: true }),
      stop: () => undefined,
      configMapsUpdated: (p, names) =>
        updates.push({ pod: p.metadata.name ?? '', names, at: h.clock.now() }),
    };
    h = await harness({ runtime });
    const t0 = h.clock.now();
    await h.controllers.settle();
    h.clock.advance(10_000 - (h.clock.now() - t0));
    const cm = h.store.get(configmaps, 'kube-system', 'kube-proxy')!;
    const data = asRecord(cm['data']);
    h.registry.update(
      configmaps,
      { ...cm, data: { ...data, 'config.conf': 'mode: nftables\n' } },
      undefined,
    );
    // A second edit before the sync is delivered with it.
    const again = h.store.get(configmaps, 'kube-system', 'kube-proxy')!;
    h.registry.update(
      configmaps,
      { ...again, data: { ...data, 'config.conf': 'mode: ipvs\n' } },
      undefined,
    );
    h.clock.advance(49_999);
    expect(updates).toEqual([]);
    h.clock.advance(1);
    expect(updates).toHaveLength(6);
    expect(updates.every((u) => u.at - t0 === 60_000 && u.names.join() === 'kube-proxy')).toBe(
      true,
    );
    h.clock.advance(120_000);
    expect(updates).toHaveLength(6);
  });
});

describe('termination messages', () => {
  const logs = Array.from({ length: 100 }, (_, i) => `line ${i}`);

  it('are what the container wrote, else its log tail only with FallbackToLogsOnError', () => {
    expect(terminationMessage(pod('x'), 1, undefined, logs)).toBeUndefined();
    expect(terminationMessage(pod('x'), 1, 'wrote this', logs)).toBe('wrote this');
    const fallback = pod('x', { terminationMessagePolicy: 'FallbackToLogsOnError' });
    expect(terminationMessage(fallback, 0, undefined, logs)).toBeUndefined();
    const tail = terminationMessage(fallback, 1, undefined, logs) ?? '';
    expect(tail.startsWith('line 20\n')).toBe(true);
    expect(tail.endsWith('line 99\n')).toBe(true);
    const long = Array.from({ length: 80 }, () => 'x'.repeat(99));
    expect(Buffer.byteLength(terminationMessage(fallback, 1, undefined, long) ?? '')).toBe(2048);
  });

  it('stay empty for a crashing container that writes none', async () => {
    const runtime: PodRuntime = {
      start: (p) =>
        asRecord(p['spec'])['nodeName'] === 'legacy-1'
          ? { ok: false, exitCode: 1, reason: 'Error', logs: ['E1129 boom'] }
          : { ok: true },
      stop: () => undefined,
    };
    h = await harness({ runtime });
    h.clock.advance(3000);
    const kp = h.kubeProxyPods().find((p) => asRecord(p['spec'])['nodeName'] === 'legacy-1')!;
    const [container] = asRecord(kp['status'])['containerStatuses'] as JsonObject[];
    expect(asRecord(asRecord(container?.['lastState'])['terminated'])).not.toHaveProperty(
      'message',
    );
    expect(asRecord(asRecord(container?.['lastState'])['terminated'])['reason']).toBe('Error');
  });
});
