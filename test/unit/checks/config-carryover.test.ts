import { describe, expect, it } from 'vitest';
import { configCarryover, nftablesCarryOver } from '../../../src/checks/config-carryover.js';
import { buildCheckContext } from '../../../src/checks/context.js';
import {
  parseKubeProxyConfiguration,
  type KubeProxyConfiguration,
} from '../../../src/core/kube-proxy-config.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import { aksDaemonSet, ciliumConfigMap, eksConfig, kubeadmWith } from '../../fixtures/checks-a.js';
import { kubeadmConfig, node, snapshotOf } from '../../fixtures/kube.js';

function parsed(text: string): KubeProxyConfiguration {
  const result = parseKubeProxyConfiguration(text);
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

const run = (over: Partial<ClusterSnapshot>) =>
  configCarryover.run(buildCheckContext(snapshotOf(over)));

const KUBEADM_FRAGMENT = `# KubeProxyConfiguration for the nftables canary: the current one with these keys set and the
# ipvs: block removed; every other key stays as it is.
mode: nftables
nodePortAddresses:
  - "0.0.0.0/0"
  - "::/0"
nftables:
  masqueradeAll: false
  syncPeriod: 30s`;

describe('nftablesCarryOver', () => {
  it('moves IPVS’s sync periods and iptables’ masquerade settings into nftables.*', () => {
    const result = nftablesCarryOver(parsed(kubeadmConfig));
    expect(result.carried).toEqual(
      expect.arrayContaining([
        { from: 'iptables.masqueradeAll', to: 'nftables.masqueradeAll', value: false },
        { from: 'ipvs.syncPeriod', to: 'nftables.syncPeriod', value: '30s' },
        {
          from: 'nodePortAddresses',
          to: 'nodePortAddresses',
          value: ['0.0.0.0/0', '::/0'],
          note: expect.stringContaining('all local IPs in ipvs mode but only the primary IPs'),
        },
        { from: 'clusterCIDR', to: 'clusterCIDR', value: '10.244.0.0/16', note: 'unchanged' },
      ]),
    );
    expect(result.dropped.map((d) => [d.key, d.value])).toEqual([
      ['ipvs.scheduler', 'rr'],
      ['ipvs.strictARP', true],
    ]);
    expect(result.defaulted).toEqual([
      { key: 'nftables.masqueradeBit', value: '14' },
      { key: 'nftables.minSyncPeriod', value: '1s' },
    ]);
    expect(result.config.mode).toBe('nftables');
    expect(result.config.ipvs).toBeUndefined();
    expect(result.config.nftables).toEqual({ masqueradeAll: false, syncPeriod: '30s' });
    expect(result.config.clusterCIDR).toBe('10.244.0.0/16');
    expect(result.fragment).toBe(KUBEADM_FRAGMENT);
    expect(nftablesCarryOver(parsed(kubeadmConfig)).fragment).toBe(result.fragment);
  });

  it('carries EKS’s masqueradeBit, conntrack and bind addresses unchanged', () => {
    const result = nftablesCarryOver(parsed(eksConfig));
    expect(result.carried).toEqual(
      expect.arrayContaining([
        { from: 'iptables.masqueradeBit', to: 'nftables.masqueradeBit', value: 14 },
        {
          from: 'metricsBindAddress',
          to: 'metricsBindAddress',
          value: '0.0.0.0:10249',
          note: 'unchanged',
        },
        {
          from: 'conntrack.maxPerCore',
          to: 'conntrack.maxPerCore',
          value: 32768,
          note: 'unchanged',
        },
      ]),
    );
    expect(result.config.nftables).toEqual({
      masqueradeAll: false,
      masqueradeBit: 14,
      syncPeriod: '30s',
    });
  });

  it('keeps explicit nodePortAddresses and replaces unused nftables values with the running ones', () => {
    const result = nftablesCarryOver({
      mode: 'ipvs',
      nodePortAddresses: ['10.0.0.0/8'],
      ipvs: { syncPeriod: '10s', minSyncPeriod: '2s' },
      nftables: { syncPeriod: '1m' },
    });
    expect(result.config.nodePortAddresses).toEqual(['10.0.0.0/8']);
    expect(result.config.nftables).toEqual({ minSyncPeriod: '2s', syncPeriod: '10s' });
    expect(result.dropped).toEqual([
      {
        key: 'nftables.syncPeriod',
        value: '1m',
        why: 'unused in ipvs mode; replaced by ipvs.syncPeriod, the value that runs today',
      },
    ]);
  });

  it('takes sync periods from iptables.* when the cluster runs iptables', () => {
    const result = nftablesCarryOver({
      mode: '',
      iptables: { syncPeriod: '15s' },
      ipvs: { syncPeriod: '30s' },
    });
    expect(result.config.nftables).toEqual({ syncPeriod: '15s' });
    expect(result.dropped[0]).toMatchObject({
      key: 'ipvs.syncPeriod',
      why: expect.stringContaining('unused in iptables mode'),
    });
  });

  it('adds conntrack.tcpBeLiberal when asked, keeping the rest of the conntrack block', () => {
    const result = nftablesCarryOver(parsed(eksConfig), { tcpBeLiberal: true });
    expect(result.config.conntrack).toEqual({
      maxPerCore: 32768,
      min: 131072,
      tcpCloseWaitTimeout: '1h0m0s',
      tcpEstablishedTimeout: '24h0m0s',
      tcpBeLiberal: true,
    });
    expect(result.carried).toContainEqual({
      from: 'conntrack.tcpBeLiberal',
      to: 'conntrack.tcpBeLiberal',
      value: true,
      added: true,
      note: expect.stringContaining('added: nodes run kernels before 6.1'),
    });
    expect(result.fragment).toContain(
      'conntrack:\n  maxPerCore: 32768\n  min: 131072\n  tcpCloseWaitTimeout: 1h0m0s\n  tcpEstablishedTimeout: 24h0m0s\n  tcpBeLiberal: true',
    );
    expect(nftablesCarryOver(parsed(eksConfig)).fragment).not.toContain('conntrack');
    expect(nftablesCarryOver(parsed(eksConfig)).config.conntrack).not.toHaveProperty(
      'tcpBeLiberal',
    );
  });

  it('replaces tcpBeLiberal: false and leaves tcpBeLiberal: true alone', () => {
    const off = nftablesCarryOver(
      { mode: 'ipvs', conntrack: { tcpBeLiberal: false } },
      { tcpBeLiberal: true },
    );
    expect(off.config.conntrack).toEqual({ tcpBeLiberal: true });
    expect(off.carried.filter((c) => c.from === 'conntrack.tcpBeLiberal')).toEqual([
      expect.objectContaining({ value: true, note: expect.stringContaining('in place of false') }),
    ]);
    const on = nftablesCarryOver(
      { mode: 'ipvs', conntrack: { tcpBeLiberal: true } },
      { tcpBeLiberal: true },
    );
    expect(on.fragment).not.toContain('conntrack');
    expect(on.carried).toContainEqual({
      from: 'conntrack.tcpBeLiberal',
      to: 'conntrack.tcpBeLiberal',
      value: true,
      note: 'unchanged',
    });
  });

  it('never throws on odd input', () => {
    const odd = {
      mode: 7,
      ipvs: 'oops',
      nodePortAddresses: 'x',
      conntrack: null,
    } as unknown as KubeProxyConfiguration;
    const result = nftablesCarryOver(odd);
    expect(result.config.mode).toBe('nftables');
    expect(result.dropped).toContainEqual({
      key: 'nodePortAddresses',
      value: 'x',
      why: 'not a list; replaced',
    });
  });
});

describe('config-carryover', () => {
  it('informs with the mapping table and the fragment as the command', () => {
    const [f, ...rest] = run({});
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'config-carryover',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      title:
        'The nftables canary carries 6 setting(s) from ConfigMap kube-system/kube-proxy (config.conf) (2 moved into nftables.*); 2 cannot be carried',
      commands: [KUBEADM_FRAGMENT],
    });
    expect(f!.detail).toContain('  ipvs.syncPeriod → nftables.syncPeriod: 30s');
    expect(f!.detail).toContain('  ipvs.strictARP: true (');
    expect(f!.detail).toContain('nftables.masqueradeBit (14)');
    // Fact-check #24, and #25: the defaults are expected values, not read from kube-proxy's code.
    expect(f!.detail).toContain(
      'IPVS mode reads ipvs.syncPeriod/minSyncPeriod and iptables.masqueradeAll/masqueradeBit; nftables mode reads only nftables.*',
    );
    expect(f!.detail).toContain(
      "Not set, so kube-proxy's own nftables defaults apply, expected to be:",
    );
  });

  it('adds tcpBeLiberal to the fragment when a node runs a kernel before 6.1', () => {
    const [old] = run({ nodes: [node({ name: 'old-1', kernel: '5.15.0-122-generic' })] });
    expect(old!.commands[0]).toContain('conntrack:\n  tcpBeLiberal: true');
    expect(old!.title).toBe(
      'The nftables canary carries 6 setting(s) from ConfigMap kube-system/kube-proxy (config.conf) (2 moved into nftables.*) and adds conntrack.tcpBeLiberal: true; 2 cannot be carried',
    );
    expect(old!.detail).toContain(
      'conntrack.tcpBeLiberal: true (added: nodes run kernels before 6.1',
    );
    const [current] = run({ nodes: [node({ name: 'new-1', kernel: '6.8.0-45-generic' })] });
    expect(current!.commands).toEqual([KUBEADM_FRAGMENT]);
  });

  it('builds the mapping from a flags-only kube-proxy', () => {
    const [f] = run({ kubeSystemDaemonSets: [aksDaemonSet()], kubeSystemConfigMaps: [] });
    expect(f!.title).toContain('from the flags of DaemonSet kube-system/kube-proxy');
    expect(f!.detail).toContain('clusterCIDR: 10.244.0.0/16 (unchanged)');
    expect(f!.detail).toContain('ipvs.scheduler: lc (');
  });

  it('passes, with nothing to carry, when the configuration is nftables already', () => {
    expect(
      run({ kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: nftables' })] }),
    ).toEqual([]);
  });

  it('reports instead of passing without kube-proxy', () => {
    const [f] = run({ kubeSystemDaemonSets: [], kubeSystemConfigMaps: [ciliumConfigMap('true')] });
    expect(f!.title).toBe('Not applicable: Cilium kube-proxy replacement replaces kube-proxy');
  });
});
