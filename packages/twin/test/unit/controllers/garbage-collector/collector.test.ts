// The garbage collector on the manual clock: the three propagation policies on a DaemonSet (its
// pods and ControllerRevisions), dangling references, owners the twin does not serve, and
// Node-owned pods.
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { Harness } from '../harness.js';
import { daemonsets, harness, nodes, pods, revisions } from '../harness.js';

const configmaps = resourceFor('configmaps');

let h: Harness;
afterEach(() => h.controllers.stop());

const owned = (list: KubeObject[], uid: string): KubeObject[] =>
  list.filter((o) => (o.metadata.ownerReferences ?? []).some((r) => r['uid'] === uid));

function proxyRevisions(): KubeObject[] {
  return h.store
    .list(revisions, { namespace: 'kube-system' })
    .items.filter((r) => r.metadata.name?.startsWith('kube-proxy-'));
}

async function booted(): Promise<{ uid: string; podUids: string[] }> {
  h = await harness();
  await h.controllers.settle();
  const uid = h.ds().metadata.uid ?? '';
  expect(h.kubeProxyPods()).toHaveLength(6);
  expect(owned(proxyRevisions(), uid)).toHaveLength(1);
  return { uid, podUids: h.kubeProxyPods().map((p) => p.metadata.uid ?? '') };
}

describe('garbage collector', () => {
  it('Background: the DaemonSet goes at once, then its pods and revisions', async () => {
    await booted();
    h.registry.delete(daemonsets, 'kube-system', 'kube-proxy', {
      propagationPolicy: 'Background',
    });
    expect(h.store.get(daemonsets, 'kube-system', 'kube-proxy')).toBeUndefined();
    expect(h.kubeProxyPods()).toHaveLength(6);
    h.clock.advance(0);
    // Pods are bound, so they terminate gracefully first.
    expect(h.kubeProxyPods().every((p) => p.metadata.deletionTimestamp !== undefined)).toBe(true);
    await h.controllers.settle();
    expect(h.kubeProxyPods()).toEqual([]);
    expect(proxyRevisions()).toEqual([]);
  });

  it('Foreground: the DaemonSet waits with its finalizer until its pods are gone', async () => {
    const { uid } = await booted();
    const generation = h.ds().metadata.generation ?? 0;
    const marked = h.registry.delete(daemonsets, 'kube-system', 'kube-proxy', {
      propagationPolicy: 'Foreground',
    });
    expect(marked.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(marked.metadata.deletionTimestamp).toBe(h.clock.timestamp());
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(marked.metadata.generation).toBe(generation + 1);
    h.clock.advance(0);
    const terminating = h.kubeProxyPods();
    expect(terminating).toHaveLength(6);
    expect(terminating.every((p) => p.metadata.deletionTimestamp !== undefined)).toBe(true);
    expect(h.ds().metadata.finalizers).toEqual(['foregroundDeletion']);
    // The DaemonSet controller does not replace pods of a DaemonSet being deleted.
    h.clock.advance(500);
    expect(h.kubeProxyPods().map((p) => p.metadata.uid)).toEqual(
      terminating.map((p) => p.metadata.uid),
    );
    expect(h.store.get(daemonsets, 'kube-system', 'kube-proxy')).toBeDefined();
    await h.controllers.settle();
    expect(h.kubeProxyPods()).toEqual([]);
    expect(h.store.get(daemonsets, 'kube-system', 'kube-proxy')).toBeUndefined();
    expect(owned(proxyRevisions(), uid)).toEqual([]);
  });

  it('Orphan: pods and revisions stay, without their owner references', async () => {
    const { uid, podUids } = await booted();
    const marked = h.registry.delete(daemonsets, 'kube-system', 'kube-proxy', {
      propagationPolicy: 'Orphan',
    });
    expect(marked.metadata.finalizers).toEqual(['orphan']);
    await h.controllers.settle();
    expect(h.store.get(daemonsets, 'kube-system', 'kube-proxy')).toBeUndefined();
    const left = h.kubeProxyPods();
    expect(left.map((p) => p.metadata.uid).sort()).toEqual([...podUids].sort());
    expect(left.every((p) => p.metadata.ownerReferences === undefined)).toBe(true);
    expect(left.every((p) => p.metadata.deletionTimestamp === undefined)).toBe(true);
    const revs = proxyRevisions();
    expect(revs).toHaveLength(1);
    expect(owned(revs, uid)).toEqual([]);
  });

  it('honours the legacy orphanDependents flag both ways', async () => {
    const { podUids } = await booted();
    const marked = h.registry.delete(daemonsets, 'kube-system', 'kube-proxy', {
      orphanDependents: true,
    });
    expect(marked.metadata.finalizers).toEqual(['orphan']);
    await h.controllers.settle();
    expect(
      h
        .kubeProxyPods()
        .map((p) => p.metadata.uid)
        .sort(),
    ).toEqual([...podUids].sort());
    h.controllers.stop();

    await booted();
    h.registry.delete(daemonsets, 'kube-system', 'kube-proxy', { orphanDependents: false });
    expect(h.store.get(daemonsets, 'kube-system', 'kube-proxy')).toBeUndefined();
    await h.controllers.settle();
    expect(h.kubeProxyPods()).toEqual([]);
  });

  it('removes a dangling reference next to a live owner, and keeps the object', async () => {
    h = await harness();
    await h.controllers.settle();
    const node = h.node('cp-1');
    const ref = (name: string, uid: string): JsonObject[] => [
      { apiVersion: 'v1', kind: 'Node', name, uid },
    ];
    h.registry.create(configmaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'two-owners',
        namespace: 'default',
        ownerReferences: [...ref('cp-1', node.metadata.uid ?? ''), ...ref('gone', 'no-such-uid')],
      },
    });
    h.registry.create(configmaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'orphaned', namespace: 'default', ownerReferences: ref('gone', 'x') },
    });
    await h.controllers.settle();
    const kept = h.store.get(configmaps, 'default', 'two-owners');
    expect(kept?.metadata.ownerReferences).toEqual(ref('cp-1', node.metadata.uid ?? ''));
    expect(h.store.get(configmaps, 'default', 'orphaned')).toBeUndefined();
  });

  it('leaves pods whose owner kind the twin does not serve (ReplicaSets)', async () => {
    h = await harness();
    await h.controllers.settle();
    const web = h.store.list(pods, { namespace: 'default' }).items;
    expect(web.map((p) => p.metadata.ownerReferences?.[0]?.['kind'])).toEqual([
      'ReplicaSet',
      'ReplicaSet',
    ]);
  });

  it('deletes the mirror pods a deleted Node owned, and nothing else', async () => {
    h = await harness();
    await h.controllers.settle();
    const onCp = (): string[] =>
      h.store
        .list(pods, { namespace: 'kube-system' })
        .items.filter((p) => p.metadata.ownerReferences?.[0]?.['kind'] === 'Node')
        .map((p) => p.metadata.name ?? '');
    expect(onCp()).toHaveLength(4);
    h.registry.delete(nodes, undefined, 'cp-1');
    await h.controllers.settle();
    expect(onCp()).toEqual([]);
    expect(h.store.list(pods, { namespace: 'default' }).items).toHaveLength(2);
  });
});
