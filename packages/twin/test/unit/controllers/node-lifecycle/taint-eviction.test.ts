// Taint-based eviction on the manual clock: untolerated NoExecute taints evict at once,
// tolerationSeconds wait exactly that long, removing the taint cancels, and the node lifecycle's
// not-ready taint evicts ordinary pods after the 300 s the admission plugin gave them.
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord, cloneJson } from '../../../../src/apimachinery/types.js';
import { tolerationMs } from '../../../../src/controllers/node-lifecycle/taint-eviction.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { Harness } from '../harness.js';
import { harness, nodes, pods } from '../harness.js';

const events = resourceFor('events');
const web = 'web-5d8f9c7b6d-h2x8r';

let h: Harness;
let started = false;
afterEach(() => {
  if (started) h.controllers.stop();
  started = false;
});

function taint(node: string, taints: JsonObject[]): void {
  const live = cloneJson(h.node(node));
  const spec = asRecord(live['spec']);
  spec['taints'] = [...((spec['taints'] as JsonObject[] | undefined) ?? []), ...taints];
  h.registry.update(nodes, { ...live, spec }, undefined);
}

function untaint(node: string, key: string): void {
  const live = cloneJson(h.node(node));
  const spec = asRecord(live['spec']);
  spec['taints'] = ((spec['taints'] as JsonObject[] | undefined) ?? []).filter(
    (t) => t['key'] !== key,
  );
  h.registry.update(nodes, { ...live, spec }, undefined);
}

const custom = { key: 'example.com/maintenance', value: 'now', effect: 'NoExecute' };
const pod = (name: string, ns = 'default'): KubeObject | undefined => h.store.get(pods, ns, name);
const proxyOn = (node: string): KubeObject | undefined =>
  h.kubeProxyPods().find((p) => asRecord(p['spec'])['nodeName'] === node);

function tolerant(name: string, seconds: number): void {
  h.registry.create(pods, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName: 'blue-2',
      containers: [{ name: 'c', image: 'busybox:1.36' }],
      tolerations: [
        { key: custom.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
      ],
    },
  });
}

describe('taint-based eviction', () => {
  it('takes the shortest tolerationSeconds of the tolerations it uses', () => {
    const t = (effect: string, key = 'k'): JsonObject => ({ key, effect });
    expect(tolerationMs([t('NoExecute')], [])).toBeUndefined();
    expect(tolerationMs([t('NoExecute')], [{ key: 'k', operator: 'Exists' }])).toBe(-1);
    expect(
      tolerationMs(
        [t('NoExecute'), t('NoExecute', 'j')],
        [
          { key: 'k', operator: 'Exists', tolerationSeconds: 60 },
          { key: 'j', operator: 'Exists', tolerationSeconds: 30 },
        ],
      ),
    ).toBe(30_000);
    expect(tolerationMs([t('NoExecute')], [{ operator: 'Exists', tolerationSeconds: -5 }])).toBe(0);
  });

  it('evicts an untolerating pod at once and leaves the DaemonSet pod that tolerates everything', async () => {
    started = true;
    h = await harness({ events: true });
    await h.controllers.settle();
    const proxy = proxyOn('blue-2')!;
    taint('blue-2', [custom]);
    h.clock.advance(0);
    const evicted = pod(web)!;
    expect(evicted.metadata.deletionTimestamp).toBeDefined();
    expect(asRecord(evicted['status'])['conditions']).toContainEqual(
      expect.objectContaining({
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      }),
    );
    await h.controllers.settle();
    expect(pod(web)).toBeUndefined();
    expect(proxyOn('blue-2')?.metadata.uid).toBe(proxy.metadata.uid);
    const marked = h.store
      .list(events, { namespace: 'default' })
      .items.filter((e) => e['reason'] === 'TaintManagerEviction')
      .map((e) => [e['message'], asRecord(e['source'])['component']]);
    expect(marked).toEqual([
      [`Marking for deletion Pod default/${web}`, 'taint-eviction-controller'],
    ]);
  });

  it('waits tolerationSeconds of simulated time, and a removed taint cancels', async () => {
    started = true;
    h = await harness({ events: true });
    await h.controllers.settle();
    tolerant('patient', 60);
    tolerant('saved', 120);
    h.clock.advance(3000);
    taint('blue-2', [{ ...custom }]);
    h.clock.advance(59_999);
    expect(pod('patient')?.metadata.deletionTimestamp).toBeUndefined();
    h.clock.advance(1);
    expect(pod('patient')?.metadata.deletionTimestamp).toBeDefined();
    untaint('blue-2', custom.key);
    h.clock.advance(120_000);
    expect(pod('saved')?.metadata.deletionTimestamp).toBeUndefined();
    const cancelled = h.store
      .list(events, { namespace: 'default' })
      .items.filter((e) => e['message'] === 'Cancelling deletion of Pod default/saved');
    expect(cancelled).toHaveLength(1);
  });

  it('evicts ordinary pods 300 s after their node turns NotReady, never the DaemonSet pods', async () => {
    started = true;
    h = await harness();
    await h.controllers.settle();
    const proxy = proxyOn('blue-2')!;
    h.controllers.setNodeReady('blue-2', false);
    h.clock.advance(299_000);
    expect(pod(web)?.metadata.deletionTimestamp).toBeUndefined();
    h.clock.advance(1000);
    expect(pod(web)?.metadata.deletionTimestamp).toBeDefined();
    h.clock.advance(600_000);
    expect(proxyOn('blue-2')?.metadata.uid).toBe(proxy.metadata.uid);
  });
});
