import { describe, expect, it } from 'vitest';
import { overview } from '../../../src/core/cluster-overview.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import { kubeadmConfigMap, node, snapshotOf } from '../../fixtures/kube.js';

function snapshot(over: Partial<ClusterSnapshot> = {}): ClusterSnapshot {
  return snapshotOf({
    nodes: [
      node({ name: 'blue-1', labels: { 'node-pool': 'blue' } }),
      node({ name: 'blue-2', labels: { 'node-pool': 'blue' }, ready: false }),
      node({ name: 'legacy-1', labels: { 'node-pool': 'legacy' }, kernel: '5.4.0-80-generic' }),
    ],
    finishedAt: '2026-11-29T14:02:02.500Z',
    ...over,
  });
}

describe('overview', () => {
  it('summarises pools, readiness and the configured mode', () => {
    const ov = overview(snapshot(), 'node-pool');
    expect(ov.pools).toEqual([
      { name: 'blue', nodes: 2, ready: 1 },
      { name: 'legacy', nodes: 1, ready: 1 },
    ]);
    expect(ov.readyNodes).toBe(2);
    expect(ov.durationMs).toBe(2500);
    expect(ov.kubeProxy).toMatchObject({
      daemonSet: 'kube-proxy',
      image: 'registry.k8s.io/kube-proxy:v1.33.4',
      mode: { effective: 'ipvs', source: 'config-file' },
    });
    expect(ov.kubeProxy.problem).toBeUndefined();
  });

  it('explains a missing DaemonSet, ConfigMap, key or bad YAML instead of failing', () => {
    expect(overview(snapshot({ kubeSystemDaemonSets: [] })).kubeProxy.problem).toBe(
      'no kube-proxy DaemonSet found in kube-system',
    );
    expect(overview(snapshot({ kubeSystemConfigMaps: [] })).kubeProxy.problem).toBe(
      'ConfigMap kube-system/kube-proxy does not exist',
    );
    expect(
      overview(snapshot({ kubeSystemConfigMaps: [{ metadata: { name: 'kube-proxy' }, data: {} }] }))
        .kubeProxy.problem,
    ).toBe('ConfigMap kube-system/kube-proxy has no key "config.conf"');
    expect(
      overview(snapshot({ kubeSystemConfigMaps: [kubeadmConfigMap('mode: [')] })).kubeProxy.problem,
    ).toMatch(/^kube-proxy\/config.conf is not valid YAML/);
  });
});
