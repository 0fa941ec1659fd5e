import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord, asString, cloneJson } from '../../../../src/apimachinery/types.js';
import type { Harness } from '../harness.js';
import { daemonsets, harness, nodes, pods, revisions } from '../harness.js';

const modeLabel = 'proxy-migrate.io/mode';
const notInAffinity = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: modeLabel, operator: 'NotIn', values: ['nftables'] }] },
      ],
    },
  },
};

let h: Harness;
afterEach(() => h.controllers.stop());

function updateDs(name: string, mutate: (ds: KubeObject) => void): void {
  const ds = cloneJson(h.ds(name));
  mutate(ds);
  h.registry.update(daemonsets, ds, undefined);
}

function templateSpec(ds: KubeObject): Record<string, unknown> {
  return asRecord(asRecord(asRecord(ds['spec'])['template'])['spec']);
}

function labelNode(name: string, value: string | undefined): void {
  const node = cloneJson(h.node(name));
  const labels = { ...node.metadata.labels };
  if (value === undefined) delete labels[modeLabel];
  else labels[modeLabel] = value;
  h.registry.update(nodes, { ...node, metadata: { ...node.metadata, labels } }, undefined);
}

const byNode = (list: KubeObject[]): Record<string, string> =>
  Object.fromEntries(
    list.map((p) => [asString(asRecord(p['spec'])['nodeName']), p.metadata.name ?? '']),
  );

const isReady = (p: KubeObject): boolean =>
  (asRecord(p['status'])['conditions'] as { type: string; status: string }[] | undefined)?.some(
    (c) => c.type === 'Ready' && c.status === 'True',
  ) ?? false;

describe('DaemonSet controller', () => {
  it('creates one pod per node as the real controller shapes it', async () => {
    h = await harness();
    await h.controllers.settle();
    const list = h.kubeProxyPods();
    expect(Object.keys(byNode(list)).sort()).toEqual([
      'blue-1',
      'blue-2',
      'cp-1',
      'green-1',
      'green-2',
      'legacy-1',
    ]);
    const pod = list.find((p) => asRecord(p['spec'])['nodeName'] === 'blue-1')!;
    expect(pod.metadata.name).toMatch(/^kube-proxy-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pod.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'DaemonSet',
        name: 'kube-proxy',
        controller: true,
        uid: h.ds('kube-proxy').metadata.uid,
      }),
    ]);
    const [rev] = h.store.list(revisions, { namespace: 'kube-system' }).items;
    expect(rev?.metadata.name).toBe(
      `kube-proxy-${pod.metadata.labels?.['controller-revision-hash']}`,
    );
    expect(rev?.['revision']).toBe(1);
    expect(pod.metadata.labels).toMatchObject({
      'k8s-app': 'kube-proxy',
      'pod-template-generation': '1',
    });
    const spec = asRecord(pod['spec']);
    expect(spec['affinity']).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['blue-1'] }] },
          ],
        },
      },
    });
    expect(spec['tolerations']).toContainEqual({
      key: 'node.kubernetes.io/unschedulable',
      operator: 'Exists',
      effect: 'NoSchedule',
    });
    const status = asRecord(pod['status']);
    expect(status).toMatchObject({
      phase: 'Running',
      hostIP: '10.0.1.11',
      podIP: '10.0.1.11',
      qosClass: 'BestEffort',
    });
    expect(asRecord(h.ds('kube-proxy')['status'])).toEqual({
      currentNumberScheduled: 6,
      desiredNumberScheduled: 6,
      numberAvailable: 6,
      numberMisscheduled: 0,
      numberReady: 6,
      observedGeneration: 1,
      updatedNumberScheduled: 6,
    });
  });

  it('restarts every pod, one at a time, when the affinity is patched under RollingUpdate', async () => {
    h = await harness();
    await h.controllers.settle();
    const before = byNode(h.kubeProxyPods());
    updateDs('kube-proxy', (ds) => (templateSpec(ds)['affinity'] = notInAffinity));
    let worst = 0;
    for (let t = 0; t < 120_000; t += 100) {
      h.clock.advance(100);
      const healthy = h
        .kubeProxyPods()
        .filter((p) => p.metadata.deletionTimestamp === undefined && isReady(p));
      worst = Math.max(worst, 6 - healthy.length);
    }
    const after = byNode(h.kubeProxyPods());
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const node of Object.keys(before)) expect(after[node]).not.toBe(before[node]);
    expect(worst).toBe(1);
    const ds = h.ds('kube-proxy');
    expect(ds.metadata.generation).toBe(2);
    expect(ds.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    expect(asRecord(ds['status'])).toMatchObject({
      updatedNumberScheduled: 6,
      numberAvailable: 6,
      observedGeneration: 2,
    });
    expect(
      h.store.list(revisions, { namespace: 'kube-system' }).items.map((r) => r['revision']),
    ).toEqual(expect.arrayContaining([1, 2]));
  });

  it('under OnDelete, restarts nothing on a template change but still leaves unlabelled nodes', async () => {
    h = await harness();
    await h.controllers.settle();
    const before = byNode(h.kubeProxyPods());
    updateDs('kube-proxy', (ds) => (asRecord(ds['spec'])['updateStrategy'] = { type: 'OnDelete' }));
    updateDs('kube-proxy', (ds) => (templateSpec(ds)['affinity'] = notInAffinity));
    await h.controllers.settle();
    expect(byNode(h.kubeProxyPods())).toEqual(before);
    expect(asRecord(h.ds('kube-proxy')['status'])['updatedNumberScheduled']).toBeUndefined();

    labelNode('blue-1', 'nftables');
    h.clock.advance(10);
    const leaving = h.store.get(pods, 'kube-system', before['blue-1']!)!;
    expect(leaving.metadata.deletionTimestamp).toBeDefined();
    await h.controllers.settle();
    const now = byNode(h.kubeProxyPods());
    expect(now['blue-1']).toBeUndefined();
    expect({ ...now, 'blue-1': before['blue-1'] }).toEqual(before);
    expect(asRecord(h.ds('kube-proxy')['status'])['desiredNumberScheduled']).toBe(5);

    // Deleting a pod by hand is what rolls it under OnDelete: the replacement is up to date.
    h.registry.delete(pods, 'kube-system', before['green-1']!);
    await h.controllers.settle();
    const replaced = h.kubeProxyPods().find((p) => asRecord(p['spec'])['nodeName'] === 'green-1')!;
    expect(replaced.metadata.name).not.toBe(before['green-1']);
    expect(replaced.metadata.labels?.['pod-template-generation']).toBe('2');
    expect(asRecord(h.ds('kube-proxy')['status'])['updatedNumberScheduled']).toBe(1);

    labelNode('blue-1', undefined);
    await h.controllers.settle();
    expect(Object.keys(byNode(h.kubeProxyPods()))).toContain('blue-1');
  });

  it('gives a canary DaemonSet the labelled node only', async () => {
    h = await harness();
    await h.controllers.settle();
    const canary = cloneJson(h.ds('kube-proxy'));
    canary.metadata = {
      name: 'kube-proxy-nftables',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'kube-proxy-nftables' },
    };
    const spec = asRecord(canary['spec']);
    spec['selector'] = { matchLabels: { 'k8s-app': 'kube-proxy-nftables' } };
    const template = asRecord(spec['template']);
    template['metadata'] = { labels: { 'k8s-app': 'kube-proxy-nftables' } };
    asRecord(template['spec'])['nodeSelector'] = { [modeLabel]: 'nftables' };
    delete canary['status'];
    h.registry.create(daemonsets, canary);
    await h.controllers.settle();
    expect(asRecord(h.ds('kube-proxy-nftables')['status'])).toMatchObject({
      desiredNumberScheduled: 0,
    });
    labelNode('green-2', 'nftables');
    await h.controllers.settle();
    const canaryPods = h.store
      .list(pods, { namespace: 'kube-system' })
      .items.filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy-nftables');
    expect(Object.keys(byNode(canaryPods))).toEqual(['green-2']);
    expect(
      h.ds('kube-proxy-nftables').metadata.annotations?.[
        'deprecated.daemonset.template.generation'
      ],
    ).toBe('1');
    h.registry.delete(daemonsets, 'kube-system', 'kube-proxy-nftables');
    await h.controllers.settle();
    expect(
      h.store.list(pods, {
        namespace: 'kube-system',
        match: (p) => p.metadata.name!.startsWith('kube-proxy-nftables'),
      }).items,
    ).toEqual([]);
  });
});
