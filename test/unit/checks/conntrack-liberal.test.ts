import { describe, expect, it } from 'vitest';
import { conntrackLiberal } from '../../../src/checks/conntrack-liberal.js';
import { configWith, ctxOf, ctxWithConfig, facts, poolNodes } from '../../fixtures/checks-b.js';

const blue = poolNodes('blue', 2);
const green = poolNodes('green', 2, { kernel: '6.8.0-45-generic' });

describe('conntrack-liberal', () => {
  it('warns per pool on kernels before 6.1 without tcpBeLiberal, with the invalid counters', () => {
    const nodeFacts = [
      facts('blue-1', { conntrack: { count: 10, max: 262144, invalidPerCpu: [0, 2, 0, 1] } }),
      facts('blue-2', { conntrack: { invalidPerCpu: [] } }),
    ];
    const findings = conntrackLiberal.run(ctxOf({ nodes: [...blue, ...green], nodeFacts }));
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      check: 'conntrack-liberal',
      severity: 'warn',
      scope: { kind: 'pool', name: 'blue' },
      subjects: ['blue-1', 'blue-2'],
      title:
        '2 of 2 nodes (blue-1, blue-2) on kernel 5.15 (< 6.1) without conntrack.tcpBeLiberal; invalid=3 on 1 probed',
    });
    expect(f?.detail).toContain('blue-1 (5.15.0-122-generic): invalid=3 (per CPU 0/2/0/1)');
    expect(f?.detail).toContain('blue-2 (5.15.0-122-generic): invalid counters not read');
    expect(f?.detail).toContain('since PR #120412 only while nf_conntrack_tcp_be_liberal is 0');
    expect(f?.detail).toContain('nftables mode installs none (PR #122663)');
    expect(f?.detail).toContain('Kernels before 6.1 carry a conntrack bug');
    expect(f?.remedy).toContain('kube-proxy then sets nf_conntrack_tcp_be_liberal=1, as kind does');
    expect(f?.remedy).toContain('tcpBeLiberal: true');
    expect(f?.remedy).toContain('the config-carryover fragment already includes it');
    expect(f?.remedy).not.toContain('canary');
    expect(f?.commands).toEqual([
      "conntrack -S | tr ' ' '\\n' | grep invalid",
      'conntrack:\n  tcpBeLiberal: true',
    ]);
  });

  it('does not fire when tcpBeLiberal is set', () => {
    const config = configWith({}, 'conntrack:\n  tcpBeLiberal: true\n');
    expect(conntrackLiberal.run(ctxWithConfig(config, { nodes: blue }))).toEqual([]);
  });

  it('does not fire on kernels 6.1 and later', () => {
    expect(conntrackLiberal.run(ctxOf({ nodes: green }))).toEqual([]);
  });

  it('assumes unset and says why when the configuration cannot be read', () => {
    const [f] = conntrackLiberal.run(ctxOf({ nodes: blue, kubeSystemConfigMaps: [] }));
    expect(f?.severity).toBe('warn');
    expect(f?.detail).toContain('could not be read');
    expect(f?.title).not.toContain('invalid=');
    expect(f?.remedy).not.toContain('config-carryover');
  });
});
