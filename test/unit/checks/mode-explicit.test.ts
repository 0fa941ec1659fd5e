import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { modeExplicit } from '../../../src/checks/mode-explicit.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import {
  aksDaemonSet,
  aksNode,
  ciliumConfigMap,
  eksConfigMaps,
  facts,
  kubeadmWith,
} from '../../fixtures/checks-a.js';
import { eksDaemonSet, node, snapshotOf } from '../../fixtures/kube.js';

const nodes = [
  node({ name: 'new-1' }),
  node({ name: 'legacy-1', kernel: '5.4.0-80-generic', osImage: 'Ubuntu 20.04.6 LTS' }),
];
const run = (over: Partial<ClusterSnapshot>) =>
  modeExplicit.run(buildCheckContext(snapshotOf({ nodes, ...over })));

describe('mode-explicit', () => {
  it('passes when the config file sets the mode (kubeadm, EKS)', () => {
    expect(run({})).toEqual([]);
    expect(
      run({ kubeSystemDaemonSets: [eksDaemonSet()], kubeSystemConfigMaps: eksConfigMaps() }),
    ).toEqual([]);
  });

  it('warns on mode: "" with the one-line fix and the kernels a default switch would break', () => {
    const [f, ...rest] = run({ kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: ""' })] });
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'mode-explicit',
      severity: 'warn',
      scope: { kind: 'cluster', name: 'cluster-a' },
      subjects: ['kube-system/kube-proxy'],
    });
    expect(f!.title).toContain('kube-proxy mode is not set (kube-proxy/config.conf has mode: "")');
    expect(f!.detail).toContain('KEP-5343');
    expect(f!.detail).toContain('KEP-5343 (provisional) plans nftables as the default at 1.40');
    expect(f!.detail).toContain(
      '1 node(s) report a kernel below 5.13 and would lose Service routing: legacy-1',
    );
    expect(f!.remedy).toContain('mode: "iptables"');
    expect(f!.commands).toEqual([
      '# kube-system/kube-proxy ConfigMap, config.conf',
      'mode: "iptables"   # or "nftables", never blank',
      'kubectl -n kube-system edit configmap kube-proxy',
    ]);
  });

  it('warns when the mode key is missing altogether', () => {
    const [f] = run({ kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs\n': '' })] });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toContain('has no mode');
  });

  it('warns on a flags-only kube-proxy without --proxy-mode', () => {
    const ds = aksDaemonSet();
    const container = ds.spec!.template!.spec!.containers[0]!;
    container.command = container.command!.filter((a) => !a.startsWith('--proxy-mode'));
    const [f] = run({
      nodes: [aksNode('aks-nodepool1-0')],
      kubeSystemDaemonSets: [ds],
      kubeSystemConfigMaps: [],
    });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toBe(
      'kube-proxy has no --proxy-mode flag: iptables by default, until an upgrade changes the default',
    );
    expect(f!.commands).toContain('- --proxy-mode=iptables');
  });

  it('passes a flags-only kube-proxy with --proxy-mode', () => {
    expect(run({ kubeSystemDaemonSets: [aksDaemonSet()], kubeSystemConfigMaps: [] })).toEqual([]);
  });

  it('warns on a mode kube-proxy does not know, suggesting what the nodes report', () => {
    const [f] = run({
      kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: IPVS' })],
      nodeFacts: [facts('new-1', { proxyMode: 'ipvs' }), facts('legacy-1', { proxyMode: 'ipvs' })],
    });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toBe('kube-proxy mode "IPVS" is not a mode kube-proxy knows');
    expect(f!.commands).toEqual(['mode: "ipvs"   # what the nodes report on /proxyMode']);
  });

  it('kernelspace is Windows-only: a Linux kube-proxy refuses it (fact-check #39)', () => {
    const [f] = run({
      kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: kernelspace' })],
      nodeFacts: [facts('new-1', { proxyMode: 'ipvs' }), facts('legacy-1', { proxyMode: 'ipvs' })],
    });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toBe(
      'kube-proxy mode "kernelspace" is Windows-only: kube-proxy on Linux refuses it',
    );
    expect(f!.detail).toContain('accepts only iptables, ipvs, nftables (lower case) or blank');
    expect(f!.commands).toEqual(['mode: "ipvs"   # what the nodes report on /proxyMode']);
  });

  it('reports instead of passing when there is no kube-proxy', () => {
    const [f] = run({ kubeSystemDaemonSets: [], kubeSystemConfigMaps: [ciliumConfigMap('true')] });
    expect(f!.severity).toBe('info');
    expect(f!.title).toBe('Not applicable: Cilium kube-proxy replacement replaces kube-proxy');
    const [g] = run({ kubeSystemConfigMaps: [] });
    expect(g!.title).toBe(
      "Could not check whether the mode is explicit: kube-proxy's configuration was not read",
    );
  });
});
