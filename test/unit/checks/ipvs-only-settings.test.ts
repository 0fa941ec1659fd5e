import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { ipvsOnlySettings } from '../../../src/checks/ipvs-only-settings.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import { eksConfigMaps, kubeadmWith } from '../../fixtures/checks-a.js';
import { eksDaemonSet, snapshotOf } from '../../fixtures/kube.js';

const run = (over: Partial<ClusterSnapshot>) =>
  ipvsOnlySettings.run(buildCheckContext(snapshotOf(over)));

describe('ipvs-only-settings', () => {
  it('informs about strictARP alone: MetalLB L2 and the sysctls left behind', () => {
    const [f, ...rest] = run({});
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'ipvs-only-settings',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      title: '1 IPVS-only setting(s) have no nftables equivalent: strictARP=true',
    });
    expect(f!.detail).toContain('MetalLB in L2 mode');
    expect(f!.detail).toContain('arp_ignore=1 and arp_announce=2');
    expect(f!.detail).toContain('MetalLB in L2 mode requires it under IPVS');
    expect(f!.detail).toContain('other sysctls IPVS mode set (net.ipv4.vs.*) as they are');
    expect(f!.detail).toContain('the cleanup does not revert the two sysctls');
    expect(f!.remedy).toBeUndefined();
  });

  it('warns on excludeCIDRs and timeouts, which need a decision', () => {
    const [f] = run({
      kubeSystemConfigMaps: [
        kubeadmWith({
          'strictARP: true':
            'strictARP: false\n  excludeCIDRs: ["10.200.0.0/24"]\n  tcpTimeout: 900s\n  udpTimeout: 0s',
        }),
      ],
    });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toBe(
      '2 IPVS-only setting(s) have no nftables equivalent: excludeCIDRs=["10.200.0.0/24"], tcpTimeout=900s',
    );
    expect(f!.detail).toContain(
      'flushes every virtual server on the node and does not read excludeCIDRs',
    );
    expect(f!.detail).toContain('the nearest knob is conntrack.tcpEstablishedTimeout');
    expect(f!.detail).toContain('since PR #131243, the whole IPVS cleanup is skipped');
    expect(f!.remedy).toContain('restore only its entries');
    expect(f!.commands).toEqual([
      'ipvsadm -Sn > ipvs-backup.rules   # on each node, before its cutover',
    ]);
  });

  it('tcpFinTimeout points at the host FIN_WAIT sysctl, not conntrack.tcpCloseWaitTimeout', () => {
    const [f] = ipvsOnlySettings.run(
      buildCheckContext(
        snapshotOf({
          kubeSystemConfigMaps: [
            kubeadmWith({ 'strictARP: true': 'strictARP: false\n  tcpFinTimeout: 30s' }),
          ],
        }),
      ),
    );
    expect(f!.title).toBe('1 IPVS-only setting(s) have no nftables equivalent: tcpFinTimeout=30s');
    expect(f!.detail).toContain(
      'the nearest knob is the host sysctl net.netfilter.nf_conntrack_tcp_timeout_fin_wait, outside kube-proxy',
    );
    expect(f!.detail).toContain(
      'conntrack.tcpCloseWaitTimeout times CLOSE_WAIT, a different state',
    );
    expect(f!.detail).not.toContain('the nearest knob is conntrack.tcpCloseWaitTimeout');
    expect(f!.remedy).toContain('nf_conntrack_tcp_timeout_fin_wait');
  });

  it('is quiet when nothing IPVS-only is set (EKS defaults) or the mode is not IPVS', () => {
    expect(
      run({ kubeSystemDaemonSets: [eksDaemonSet()], kubeSystemConfigMaps: eksConfigMaps() }),
    ).toEqual([]);
    expect(run({ kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: ""' })] })).toEqual([]);
  });

  it('reports instead of passing when the configuration is unreadable', () => {
    const [f] = run({ kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: [' })] });
    expect(f!.severity).toBe('info');
    expect(f!.title).toContain('Could not check IPVS-only settings');
  });
});
