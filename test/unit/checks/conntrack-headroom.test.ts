import { describe, expect, it } from 'vitest';
import { conntrackHeadroom } from '../../../src/checks/conntrack-headroom.js';
import { ctxOf, facts, poolNodes } from '../../fixtures/checks-b.js';

const blue = poolNodes('blue', 3);

describe('conntrack-headroom', () => {
  it('warns per pool when nf_conntrack_count is over 75% of nf_conntrack_max', () => {
    const nodeFacts = [
      facts('blue-1'),
      facts('blue-2', { conntrack: { count: 210000, max: 262144, invalidPerCpu: [] } }),
      facts('blue-3', { conntrack: { count: 131072, max: 131072, invalidPerCpu: [] } }),
    ];
    const findings = conntrackHeadroom.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      check: 'conntrack-headroom',
      severity: 'warn',
      scope: { kind: 'pool', name: 'blue' },
      subjects: ['blue-2', 'blue-3'],
      title: '2 of 3 nodes (blue-2, blue-3) above 75% of nf_conntrack_max',
    });
    expect(f?.detail).toContain('blue-2: 210,000 of 262,144 (80%)');
    expect(f?.detail).toContain('blue-3: 131,072 of 131,072 (100%)');
    expect(f?.remedy).toContain('Raise nf_conntrack_max');
    expect(f?.remedy).toContain('maxPerCore');
    expect(f?.remedy).toContain(
      'conntrack.maxPerCore × CPUs (at least conntrack.min) unless maxPerCore is 0',
    );
    expect(f?.commands).toContain('conntrack -S');
    expect(f?.commands).toContain(
      'sysctl net.netfilter.nf_conntrack_count net.netfilter.nf_conntrack_max',
    );
  });

  it('does not fire with headroom', () => {
    const nodeFacts = blue.map((n) => facts(n.metadata.name));
    expect(conntrackHeadroom.run(ctxOf({ nodes: blue, nodeFacts }))).toEqual([]);
  });

  it('reports nodes whose figures could not be read, as info', () => {
    const nodeFacts = [
      facts('blue-1'),
      facts('blue-2', {
        conntrack: { invalidPerCpu: [] },
        errors: [{ probe: 'conntrack', code: 'exit-1', message: 'Operation not permitted' }],
      }),
    ];
    const [f] = conntrackHeadroom.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(f).toMatchObject({ severity: 'info', subjects: ['blue-2', 'blue-3'] });
    expect(f?.title).toBe('conntrack count/max not read on 2 of 3 nodes (blue-2, blue-3)');
    expect(f?.detail).toContain('blue-2 (conntrack: exit-1: Operation not permitted)');
    expect(f?.detail).toContain('blue-3 (not probed)');
  });

  it('notes once that probes were skipped', () => {
    const findings = conntrackHeadroom.run(ctxOf({ nodes: blue }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'info', scope: { kind: 'cluster' } });
  });
});
