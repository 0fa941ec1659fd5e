import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { kubeProxyPresent } from '../../../src/checks/kube-proxy-present.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import {
  anetdDaemonSet,
  ciliumConfigMap,
  eksConfigMaps,
  k3sNode,
} from '../../fixtures/checks-a.js';
import { eksDaemonSet, kubeadmDaemonSet, node, snapshotOf } from '../../fixtures/kube.js';

const run = (over: Partial<ClusterSnapshot>) =>
  kubeProxyPresent.run(buildCheckContext(snapshotOf(over)));

describe('kube-proxy-present', () => {
  it('reports kubeadm’s DaemonSet and where its config lives', () => {
    const [f, ...rest] = run({ nodes: [node({ name: 'n1' })] });
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'kube-proxy-present',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      subjects: ['kube-system/kube-proxy'],
    });
    expect(f!.title).toBe(
      'kube-proxy found: DaemonSet kube-system/kube-proxy, configured by ConfigMap kube-system/kube-proxy, key config.conf (mounted as /var/lib/kube-proxy/config.conf)',
    );
    expect(f!.detail).toContain('registry.k8s.io/kube-proxy:v1.33.4');
  });

  it('follows EKS’s DaemonSet to kube-proxy-config', () => {
    const [f] = run({
      kubeSystemDaemonSets: [eksDaemonSet()],
      kubeSystemConfigMaps: eksConfigMaps(),
    });
    expect(f!.severity).toBe('info');
    expect(f!.title).toContain('ConfigMap kube-system/kube-proxy-config, key config');
  });

  it('blocks when the configuration cannot be read, with the reason', () => {
    const [f] = run({ kubeSystemConfigMaps: [] });
    expect(f).toMatchObject({ severity: 'block', subjects: ['kube-system/kube-proxy'] });
    expect(f!.title).toContain('ConfigMap kube-system/kube-proxy does not exist');
    expect(f!.remedy).toBeDefined();
  });

  it('says there is nothing to migrate when Cilium replaces kube-proxy', () => {
    for (const value of ['true', 'strict', ' True ']) {
      const [f] = run({ kubeSystemDaemonSets: [], kubeSystemConfigMaps: [ciliumConfigMap(value)] });
      expect(f!.severity).toBe('info');
      expect(f!.title).toBe(
        'No kube-proxy: Cilium kube-proxy replacement handles Services, nothing to migrate',
      );
    }
  });

  it('says there is nothing to migrate on GKE Dataplane V2', () => {
    const [f] = run({ kubeSystemDaemonSets: [anetdDaemonSet()], kubeSystemConfigMaps: [] });
    expect(f!.severity).toBe('info');
    expect(f!.title).toContain('GKE Dataplane V2');
    expect(f!.detail).toContain('kube-system/anetd');
  });

  it('guides k3s and RKE2 to kube-proxy-arg, without a canary', () => {
    const [k3s] = run({
      nodes: [k3sNode('k1')],
      kubeSystemDaemonSets: [],
      kubeSystemConfigMaps: [],
    });
    expect(k3s).toMatchObject({ severity: 'warn', scope: { kind: 'cluster' } });
    expect(k3s!.title).toContain('k3s: kube-proxy is not a DaemonSet');
    expect(k3s!.detail).toContain('embedded in the k3s process');
    expect(k3s!.commands).toEqual([
      '# /etc/rancher/k3s/config.yaml on the node being moved',
      'kube-proxy-arg:\n  - proxy-mode=nftables',
      'sudo systemctl restart k3s-agent   # k3s on server nodes',
    ]);
    const [rke2] = run({
      nodes: [k3sNode('r1', 'rke2')],
      kubeSystemDaemonSets: [],
      kubeSystemConfigMaps: [],
    });
    expect(rke2!.severity).toBe('warn');
    expect(rke2!.detail).toContain('static pod');
    // Fact-check #46, re-checked: RKE2 writes its static pod manifests at every start (rancher/rke2#897).
    expect(rke2!.detail).toContain('static pod whose manifest RKE2 regenerates on every restart');
    expect(rke2!.remedy).toContain('/etc/rancher/rke2/config.yaml');
  });

  it('blocks when kube-proxy is simply missing, Cilium off or not', () => {
    for (const cms of [[], [ciliumConfigMap('false')]]) {
      const [f] = run({
        nodes: [node({ name: 'n1' })],
        kubeSystemDaemonSets: [],
        kubeSystemConfigMaps: cms,
      });
      expect(f!.severity).toBe('block');
      expect(f!.title).toBe('No kube-proxy DaemonSet found in kube-system');
      expect(f!.commands).toContain('kubectl get ds -A -l k8s-app=kube-proxy');
    }
  });

  it('blocks on a kube-proxy DaemonSet without containers', () => {
    const [f] = run({ kubeSystemDaemonSets: [{ metadata: { name: 'kube-proxy' } }] });
    expect(f!.severity).toBe('block');
    expect(f!.title).toContain('DaemonSet kube-system/kube-proxy has no container');
  });

  it('warns when kube-proxy runs next to a Cilium that replaces it', () => {
    const [f] = run({
      kubeSystemDaemonSets: [kubeadmDaemonSet()],
      kubeSystemConfigMaps: [...snapshotOf().kubeSystemConfigMaps, ciliumConfigMap('true')],
    });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toContain('but Cilium kube-proxy replacement is also enabled');
    expect(f!.commands[0]).toContain('cilium-dbg status');
  });
});
