import { describe, expect, it } from 'vitest';
import { nodelocaldns } from '../../../src/checks/nodelocaldns.js';
import { kubeadmDaemonSet } from '../../fixtures/kube.js';
import { ctxOf, nodeLocalDns } from '../../fixtures/checks-b.js';

const withDns = (localip: string | undefined) =>
  ctxOf({ kubeSystemDaemonSets: [kubeadmDaemonSet(), nodeLocalDns(localip)] });

describe('nodelocaldns', () => {
  it('says to leave the IPVS layout (link-local address only) as it is', () => {
    const findings = nodelocaldns.run(withDns('169.254.20.10'));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      check: 'nodelocaldns',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      subjects: ['kube-system/node-local-dns'],
      title:
        'NodeLocal DNSCache in the IPVS layout (-localip 169.254.20.10 only): leave it as it is',
    });
    expect(findings[0]?.detail).toContain('keeps working');
    expect(findings[0]?.detail).toContain('--cluster-dns on every kubelet');
    expect(findings[0]?.detail).toContain('because kube-ipvs0 owns the kube-dns ClusterIP');
  });

  it('is fine with the two-address layout', () => {
    const [f] = nodelocaldns.run(withDns('169.254.20.10,10.96.0.10'));
    expect(f?.severity).toBe('info');
    expect(f?.title).toBe(
      'NodeLocal DNSCache listens on 169.254.20.10 and 10.96.0.10: the iptables-mode layout, expected to work in nftables mode',
    );
    // Fact-check #41: the NodeLocal DNSCache docs describe iptables and IPVS modes only.
    expect(f?.detail).toContain('they describe iptables and IPVS only');
    expect(f?.detail).not.toContain('documented for iptables and nftables mode');
  });

  it('reports an unreadable -localip without failing', () => {
    expect(nodelocaldns.run(withDns(undefined))[0]?.title).toContain('could not be read');
    expect(nodelocaldns.run(withDns('__PILLAR__LOCAL__DNS__'))[0]?.title).toContain(
      'could not be read',
    );
  });

  it('does not fire without NodeLocal DNSCache', () => {
    expect(nodelocaldns.run(ctxOf())).toEqual([]);
  });
});
