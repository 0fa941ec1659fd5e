import { describe, expect, it } from 'vitest';
import { nftablesFlags } from '../../../src/core/canary-flags.js';

describe('nftablesFlags', () => {
  it('replaces a two-token --proxy-mode where it stands', () => {
    const { container } = nftablesFlags(
      { name: 'kube-proxy', command: ['kube-proxy', '--proxy-mode', 'ipvs', '--v=2'], args: [] },
      { tcpBeLiberal: false },
    );
    expect(container.command).toEqual(['kube-proxy', '--proxy-mode=nftables', '--v=2']);
    expect(container.args).toEqual(['--nodeport-addresses=0.0.0.0/0,::/0']);
  });

  it('adds --proxy-mode when the mode was the default, to args when there are args', () => {
    const result = nftablesFlags(
      { name: 'kube-proxy', command: ['kube-proxy'], args: ['--nodeport-addresses=10.0.0.0/8'] },
      { tcpBeLiberal: false },
    );
    expect(result.container).toEqual({
      name: 'kube-proxy',
      command: ['kube-proxy'],
      args: ['--nodeport-addresses=10.0.0.0/8', '--proxy-mode=nftables'],
    });
    expect(result.changes).toEqual(['(no --proxy-mode: iptables) → --proxy-mode=nftables']);
  });

  it('carries the IPVS sync periods into the flags nftables mode reads', () => {
    const result = nftablesFlags(
      {
        name: 'kube-proxy',
        command: [
          'kube-proxy',
          '--proxy-mode=ipvs',
          '--ipvs-sync-period=10s',
          '--iptables-sync-period=1m',
          '--conntrack-tcp-be-liberal',
        ],
      },
      { tcpBeLiberal: true },
    );
    expect(result.container.command).toEqual([
      'kube-proxy',
      '--proxy-mode=nftables',
      '--ipvs-sync-period=10s',
      '--iptables-sync-period=10s',
      '--conntrack-tcp-be-liberal',
      '--nodeport-addresses=0.0.0.0/0,::/0',
    ]);
  });

  it('says what flags cannot carry', () => {
    const result = nftablesFlags(
      {
        name: 'kube-proxy',
        command: ['kube-proxy', '--proxy-mode=ipvs', '--iptables-masquerade-bit=15'],
      },
      { tcpBeLiberal: false },
    );
    expect(result.dropped).toEqual([
      expect.stringMatching(
        /^--iptables-masquerade-bit=15: nftables mode reads nftables.masqueradeBit/,
      ),
    ]);
  });
});
