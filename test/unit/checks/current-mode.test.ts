import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { currentMode } from '../../../src/checks/current-mode.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import { facts, kubeadmWith, pooledNodes } from '../../fixtures/checks-a.js';
import { snapshotOf } from '../../fixtures/kube.js';

const run = (over: Partial<ClusterSnapshot>) =>
  currentMode.run(buildCheckContext(snapshotOf({ nodes: pooledNodes(), ...over }), 'node-pool'));

describe('current-mode', () => {
  it('counts what nodes actually run and lists per pool the ones that differ', () => {
    const findings = run({
      nodeFacts: [
        facts('blue-1', { proxyMode: 'nftables' }),
        facts('blue-2', { proxyMode: 'ipvs' }),
        facts('green-1', { proxyMode: 'iptables\n' }),
        facts('green-2'),
      ],
    });
    expect(findings).toHaveLength(3);
    const [summary, blue, green] = findings;
    expect(summary).toMatchObject({
      check: 'current-mode',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      subjects: ['blue-1'],
      title:
        'kube-proxy is configured for ipvs; nodes report iptables 1, ipvs 1, nftables 1, not probed 1',
    });
    expect(summary!.detail).toContain(
      'Configured: ipvs (mode: "ipvs" in ConfigMap kube-system/kube-proxy, key config.conf).',
    );
    expect(summary!.detail).toContain('1 of 4 node(s) were not probed');
    expect(summary!.detail).toContain('Already on nftables, no cutover needed: blue-1.');
    expect(blue).toMatchObject({
      severity: 'info',
      scope: { kind: 'pool', name: 'blue' },
      subjects: ['blue-1'],
      title: 'pool blue: 1 of 2 nodes (blue-1) already on nftables (no cutover needed)',
    });
    expect(green).toMatchObject({
      severity: 'warn',
      scope: { kind: 'pool', name: 'green' },
      subjects: ['green-1'],
    });
    expect(green!.title).toContain('run another mode than the configured ipvs (green-1: iptables)');
    expect(green!.remedy).toBeDefined();
    expect(green!.commands[0]).toContain("grep -i 'proxier\\|nftables'");
  });

  it('only informs when every node runs the configured mode', () => {
    const findings = run({
      nodeFacts: pooledNodes().map((n) => facts(n.metadata.name, { proxyMode: 'ipvs' })),
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.title).toBe('kube-proxy is configured for ipvs; nodes report ipvs 4');
  });

  it('says so when no node was probed, without failing', () => {
    const [f, ...rest] = run({});
    expect(rest).toEqual([]);
    expect(f!.severity).toBe('info');
    expect(f!.title).toBe(
      'kube-proxy is configured for ipvs; actual mode not probed on any of 4 node(s)',
    );
  });

  it('names kube-proxy’s default when the mode is blank', () => {
    const [f] = run({ kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: ""' })] });
    expect(f!.title).toContain('configured for iptables');
    expect(f!.detail).toContain(
      'kube-proxy\'s default: mode: "" in ConfigMap kube-system/kube-proxy',
    );
  });

  it('flags nodes still on IPVS once the config says nftables', () => {
    const findings = run({
      kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: nftables' })],
      nodeFacts: [
        facts('blue-1', { proxyMode: 'ipvs' }),
        facts('blue-2', { proxyMode: 'nftables' }),
      ],
    });
    expect(findings.map((f) => [f.scope.name, f.severity, f.subjects])).toEqual([
      ['cluster-a', 'info', ['blue-2']],
      ['blue', 'warn', ['blue-1']],
    ]);
  });

  it('still reports the nodes when the configuration cannot be read', () => {
    const findings = run({
      kubeSystemConfigMaps: [],
      nodeFacts: [facts('blue-1', { proxyMode: 'nftables' })],
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.title).toContain('configured for an unknown mode');
    expect(findings[0]!.detail).toContain('ConfigMap kube-system/kube-proxy does not exist');
  });
});
