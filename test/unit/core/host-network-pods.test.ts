import { describe, expect, it } from 'vitest';
import { hostNetworkPodKeeper } from '../../../src/core/host-network-pods.js';
import type { KubePod } from '../../../src/core/kube.js';

const pod = (name: string, owner?: { kind: string; name: string }, revision?: string): KubePod => ({
  metadata: {
    name,
    namespace: 'kube-system',
    ...(revision === undefined ? {} : { labels: { 'controller-revision-hash': revision } }),
    ...(owner === undefined
      ? {}
      : { ownerReferences: [{ ...owner, controller: true, apiVersion: 'v1', uid: owner.name }] }),
  },
  spec: { hostNetwork: true, containers: [{ name: 'c', image: 'i' }] },
  status: { phase: 'Running' },
});

describe('hostNetworkPodKeeper', () => {
  it('keeps one pod per controller and revision, every bare and static pod, and no status', () => {
    const keep = hostNetworkPodKeeper();
    const ds = { kind: 'DaemonSet', name: 'kube-proxy' };
    const pods = [
      pod('kube-proxy-a', ds, 'r1'),
      pod('kube-proxy-b', ds, 'r1'),
      pod('kube-proxy-c', ds, 'r2'),
      pod('etcd-cp-1', { kind: 'Node', name: 'cp-1' }),
      pod('etcd-cp-2', { kind: 'Node', name: 'cp-2' }),
      pod('bare'),
    ];
    const kept = pods.flatMap((p) => keep(p) ?? []);
    expect(kept.map((p) => p.metadata.name)).toEqual([
      'kube-proxy-a',
      'kube-proxy-c',
      'etcd-cp-1',
      'etcd-cp-2',
      'bare',
    ]);
    expect(kept.every((p) => p.status === undefined)).toBe(true);
    // A second keeper starts afresh: its state is its own.
    expect(hostNetworkPodKeeper()(pods[1]!)?.metadata.name).toBe('kube-proxy-b');
  });
});
