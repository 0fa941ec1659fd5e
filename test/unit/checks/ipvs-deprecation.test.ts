import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { ipvsDeprecation, ipvsStage } from '../../../src/checks/ipvs-deprecation.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import { kubeadmWith } from '../../fixtures/checks-a.js';
import { kubeadmDaemonSet, snapshotOf } from '../../fixtures/kube.js';

function at(version: string, over: Partial<ClusterSnapshot> = {}) {
  const ds = kubeadmDaemonSet();
  ds.spec!.template!.spec!.containers[0]!.image = `registry.k8s.io/kube-proxy:${version}`;
  return ipvsDeprecation.run(
    buildCheckContext(
      snapshotOf({ kubernetesVersion: version, kubeSystemDaemonSets: [ds], ...over }),
    ),
  );
}
const gate = (value: boolean) => ({
  kubeSystemConfigMaps: [
    kubeadmWith({ 'mode: ipvs': `mode: ipvs\nfeatureGates:\n  KubeProxyIPVS: ${String(value)}` }),
  ],
});

describe('ipvs-deprecation', () => {
  it('informs before 1.35 with the whole clock', () => {
    const [f, ...rest] = at('v1.33.4');
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'ipvs-deprecation',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      title:
        'IPVS mode on kube-proxy v1.33.4: deprecated from 1.35, off by default from 1.40, removed in 1.43',
    });
    expect(f!.detail).toContain('1.43 locks it and deletes pkg/proxy/ipvs');
    expect(f!.detail).toContain(
      '1.35 logs a deprecation error at every start; 1.37 adds the KubeProxyIPVS gate (on); 1.40 turns it off',
    );
    expect(f!.detail).toContain('1.46 removes the gate');
  });

  it('warns in 1.35-1.36 with the log line and Node event to look for', () => {
    const [f] = at('v1.35.2');
    expect(f!.severity).toBe('warn');
    expect(f!.title).toContain('IPVS mode is deprecated in kube-proxy v1.35.2');
    expect(f!.commands).toContain('kubectl get events -A --field-selector reason=IPVSDeprecation');
  });

  it('warns in 1.37-1.39 with the gate’s status, blocks when it is set to false', () => {
    const [unset] = at('v1.38.0');
    expect(unset!.severity).toBe('warn');
    expect(unset!.title).toContain('(KubeProxyIPVS not set)');
    const [on] = at('v1.38.0', gate(true));
    expect(on!.title).toContain('(KubeProxyIPVS: true)');
    const [off] = at('v1.38.0', gate(false));
    expect(off!.severity).toBe('block');
    expect(off!.title).toBe(
      'kube-proxy v1.38.0 has KubeProxyIPVS: false, which turns IPVS mode off',
    );
  });

  it('blocks from 1.40 without the gate and warns with it', () => {
    const [off] = at('v1.40.1');
    expect(off!.severity).toBe('block');
    expect(off!.title).toBe(
      'kube-proxy v1.40.1 does not start in IPVS mode without KubeProxyIPVS: true (KubeProxyIPVS not set)',
    );
    expect(off!.commands).toEqual([
      '# KubeProxyConfiguration: keeps IPVS starting on 1.40-1.42 only\nfeatureGates:\n  KubeProxyIPVS: true',
    ]);
    const [stall] = at('v1.41.0', gate(true));
    expect(stall!.severity).toBe('warn');
    expect(stall!.title).toContain('runs only because KubeProxyIPVS: true; it ends at 1.43');
  });

  it('blocks from 1.43, gate or not', () => {
    const [f] = at('v1.43.0', gate(true));
    expect(f!.severity).toBe('block');
    expect(f!.title).toBe('kube-proxy v1.43.0 has no IPVS mode: IPVS was removed in 1.43');
  });

  it('warns, without blocking, when only the control plane is past 1.40', () => {
    const ds = kubeadmDaemonSet();
    ds.spec!.template!.spec!.containers[0]!.image = 'registry.k8s.io/kube-proxy:v1.39.2';
    const [f] = ipvsDeprecation.run(
      buildCheckContext(snapshotOf({ kubernetesVersion: 'v1.40.0', kubeSystemDaemonSets: [ds] })),
    );
    expect(f!.severity).toBe('warn');
    expect(f!.title).toContain('; the control plane is at v1.40.0');
    expect(f!.detail).toContain('The control plane is at v1.40.0 already');
    expect(f!.detail).toContain('where IPVS mode no longer starts as configured');
  });

  it('escalates info to warn when the control plane is already in the deprecated stage', () => {
    const ds = kubeadmDaemonSet();
    ds.spec!.template!.spec!.containers[0]!.image = 'registry.k8s.io/kube-proxy:v1.34.3';
    const [f, ...rest] = ipvsDeprecation.run(
      buildCheckContext(snapshotOf({ kubernetesVersion: 'v1.35.0', kubeSystemDaemonSets: [ds] })),
    );
    expect(rest).toEqual([]);
    expect(f!.severity).toBe('warn');
    expect(f!.title).toBe(
      'IPVS mode on kube-proxy v1.34.3: deprecated from 1.35, off by default from 1.40, removed in 1.43; the control plane is at v1.35.0',
    );
    expect(f!.detail).toContain('upgrading kube-proxy to it moves IPVS to the "deprecated" stage.');
    expect(f!.detail).not.toContain('no longer starts');
    expect(f!.remedy).toBe(
      'Migrate to nftables before upgrading kube-proxy to the control plane’s version.',
    );
  });

  it('is quiet when kube-proxy does not run IPVS', () => {
    const ctx = buildCheckContext(
      snapshotOf({ kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: nftables' })] }),
    );
    expect(ipvsDeprecation.run(ctx)).toEqual([]);
  });

  it('places versions on the clock', () => {
    const stage = (minor: number) => ipvsStage({ major: 1, minor, patch: 0 });
    expect([34, 35, 36, 37, 39, 40, 42, 43, 46].map(stage)).toEqual([
      'supported',
      'deprecated',
      'deprecated',
      'gated',
      'gated',
      'off',
      'off',
      'removed',
      'removed',
    ]);
  });
});
