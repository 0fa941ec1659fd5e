// The node wiring on a manual clock: the Service resync debounce runs on simulated time, a deleted
// kube-proxy pod's logs are dropped (a restarted one keeps them for --previous), and a failed boot
// stops every timer it started.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, ManualClock, Twin } from '../../src/index.js';
import { createManualClock, resourceFor, startTwin } from '../../src/index.js';

const pods = resourceFor('pods');
const services = resourceFor('services');

let twin: Twin | undefined;
afterEach(async () => {
  await twin?.close();
  twin = undefined;
});

async function start(clock: ManualClock): Promise<Twin> {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', clock });
  return twin;
}

function kubeProxyPod(t: Twin, node: string): KubeObject {
  const pod = t.store
    .list(pods, { namespace: 'kube-system' })
    .items.find(
      (p) =>
        p.metadata.labels?.['k8s-app'] === 'kube-proxy' &&
        (p['spec'] as { nodeName?: string }).nodeName === node,
    );
  if (!pod) throw new Error(`no kube-proxy pod on ${node}`);
  return pod;
}

describe('node wiring', () => {
  it('debounces Service resyncs on the twin clock', async () => {
    const clock = createManualClock();
    const t = await start(clock);
    const svc = t.registry.create(services, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'debounced', namespace: 'default' },
      spec: { selector: { app: 'x' }, ports: [{ port: 80, protocol: 'TCP' }] },
    });
    const ip = (svc['spec'] as { clusterIP: string }).clusterIP;
    expect(t.dataplane?.catalog.byServiceIP.has(ip)).toBe(false);
    clock.advance(99);
    expect(t.dataplane?.catalog.byServiceIP.has(ip)).toBe(false);
    clock.advance(1);
    expect(t.dataplane?.catalog.byServiceIP.has(ip)).toBe(true);
  });

  it('drops a kube-proxy pod’s logs once the pod is deleted', async () => {
    const clock = createManualClock();
    const t = await start(clock);
    const name = kubeProxyPod(t, 'blue-1').metadata.name ?? '';
    expect(t.dataplane?.logs('blue-1', name).length).toBeGreaterThan(0);
    t.registry.delete(pods, 'kube-system', name);
    // Terminating: the container stops, its logs stay readable until the pod is gone.
    expect(t.store.get(pods, 'kube-system', name)).toBeDefined();
    expect(t.dataplane?.logs('blue-1', name).length).toBeGreaterThan(0);
    await t.controllers?.settle();
    expect(t.store.get(pods, 'kube-system', name)).toBeUndefined();
    expect(t.dataplane?.logs('blue-1', name)).toEqual([]);
    expect(t.dataplane?.logs('blue-1', name, true)).toEqual([]);
    // Its replacement logs as usual.
    await t.controllers?.settle();
    const replacement = kubeProxyPod(t, 'blue-1').metadata.name ?? '';
    expect(replacement).not.toBe(name);
    expect(t.dataplane?.logs('blue-1', replacement).length).toBeGreaterThan(0);
  });

  it('stops every scheduler it started when the boot fails', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    // The manual clock, with a record of which of its schedulers were stopped.
    const base = createManualClock();
    const stopped: boolean[] = [];
    const clock: ManualClock = {
      ...base,
      scheduler() {
        const inner = base.scheduler();
        const index = stopped.push(false) - 1;
        return {
          ...inner,
          stop() {
            stopped[index] = true;
            inner.stop();
          },
        };
      },
    };
    try {
      await expect(startTwin({ scenario: 'kubeadm-ipvs', clock, port })).rejects.toThrow(
        /EADDRINUSE/,
      );
      // The controllers' and the node wiring's.
      expect(stopped.length).toBeGreaterThanOrEqual(2);
      expect(stopped.every(Boolean)).toBe(true);
      expect(base.pendingTimers()).toBe(0);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
