import { describe, expect, it } from 'vitest';
import { nftVersion } from '../../../src/checks/nft-version.js';
import type { NodeFacts } from '../../../src/core/snapshot.js';
import { ctxOf, facts, poolNodes } from '../../fixtures/checks-b.js';

const blue = poolNodes('blue', 2);
const legacy = poolNodes('legacy', 2);

describe('nft-version', () => {
  it('blocks a pool on host nft below 1.0.1', () => {
    const nodeFacts = [
      facts('blue-1'),
      facts('blue-2'),
      facts('legacy-1', { nftVersion: '0.9.3' }),
      facts('legacy-2', { nftVersion: '1.0.0' }),
    ];
    const findings = nftVersion.run(ctxOf({ nodes: [...blue, ...legacy], nodeFacts }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      check: 'nft-version',
      severity: 'block',
      scope: { kind: 'pool', name: 'legacy' },
      subjects: ['legacy-1', 'legacy-2'],
      title: '2 of 2 nodes (legacy-1, legacy-2) on host nft < 1.0.1',
    });
    expect(findings[0]?.detail).toContain(
      'legacy-1: nft 0.9.3 (0.9.8 or older: unusable next to kube-proxy’s rules)',
    );
    expect(findings[0]?.detail).toContain('legacy-2: nft 1.0.0.');
    expect(findings[0]?.detail).toContain('"the system nft will become completely unusable"');
    expect(findings[0]?.detail).toContain('nft inside its own image, not the host’s');
    expect(findings[0]?.detail).toContain(
      'knftables checks that one (nft --version, refusing "nftables v0." and "v1.0.0", then an nft --check dry run)',
    );
    expect(findings[0]?.detail).not.toContain('stand-in for a new enough host nft, and host tools');
    expect(findings[0]?.remedy).toContain('apt install nftables');
    expect(findings[0]?.remedy).toContain('kube-proxy itself does not use the host nft');
    expect(findings[0]?.remedy).toContain('dnf install nftables');
    expect(findings[0]?.commands).toEqual(
      expect.arrayContaining(['nft --version', 'apt install nftables', 'dnf install nftables']),
    );
  });

  it('does not fire on nft 1.0.1 and later', () => {
    const nodeFacts = [facts('blue-1', { nftVersion: '1.0.1' }), facts('blue-2')];
    expect(nftVersion.run(ctxOf({ nodes: blue, nodeFacts }))).toEqual([]);
  });

  it('a host without nft needs nothing installed: an info note about host-side inspection', () => {
    const nodeFacts = [
      facts('blue-1'),
      {
        node: 'blue-2',
        kernel: '5.15.0-122-generic',
        errors: [{ probe: 'nft-version', code: 'exit-127', message: 'nft: command not found' }],
      },
    ];
    const [f] = nftVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(f).toMatchObject({ severity: 'info', subjects: ['blue-2'] });
    expect(f?.title).toBe('no host nft on 1 of 2 nodes (blue-2) (kube-proxy does not need it)');
    expect(f?.detail).toContain('nft-version: exit-127: nft: command not found');
    expect(f?.detail).toContain('nothing needs installing');
    expect(f?.detail).toContain('exec ds/kube-proxy -- nft list table ip kube-proxy');
    expect(f?.remedy).toBeUndefined();
    expect(f?.commands).not.toContain('apt install nftables');
  });

  it('reads the probe’s "no nft on the host" answer as the info note', () => {
    const bare: NodeFacts = { ...facts('blue-2'), hostNftMissing: true };
    delete bare.nftVersion;
    const nodeFacts = [facts('blue-1'), bare];
    const [f] = nftVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(f).toMatchObject({ severity: 'info', subjects: ['blue-2'] });
    expect(f?.detail).toContain('blue-2: nft is not installed on the host');
  });

  it('warns about unprobed nodes and unreadable versions', () => {
    const nodeFacts = [facts('blue-1', { nftVersion: 'garbage' })];
    const [f] = nftVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(f?.severity).toBe('warn');
    expect(f?.title).toContain('unreadable nft version on 1 of 2 nodes (blue-1)');
    expect(f?.title).toContain('1 of 2 nodes (blue-2) not probed');
  });

  it('warns about host nft 1.1.3 and later (kubernetes#136786)', () => {
    const nodeFacts = [
      facts('blue-1', { nftVersion: '1.1.3' }),
      facts('blue-2', { nftVersion: '1.1.5' }),
    ];
    const [f] = nftVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(f).toMatchObject({ severity: 'warn', subjects: ['blue-1', 'blue-2'] });
    expect(f?.title).toBe('2 of 2 nodes (blue-1, blue-2) on host nft 1.1.3 or later');
    expect(f?.detail).toContain('#136786');
    expect(f?.detail).toContain('fixed only the crash while listing');
    expect(f?.detail).toContain('patched nft 1.0.6.1 (kubernetes/kubernetes#140405');
    expect(f?.remedy).toContain('PR #137501 alone is not enough');
    expect(f?.remedy).toContain('kubectl -n kube-system exec ds/kube-proxy -- nft --version');
    expect(f?.remedy).not.toContain('March 2026');
  });

  it('says so once when node probes were skipped', () => {
    const findings = nftVersion.run(ctxOf({ nodes: blue }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'info', scope: { kind: 'cluster' } });
    expect(findings[0]?.title).toContain('node probes were skipped');
  });

  it('reads the stored form only: a raw `nft --version` line is not one', () => {
    const nodeFacts = [
      facts('blue-1', { nftVersion: 'v1.0.6' }),
      facts('blue-2', { nftVersion: 'nftables v1.0.6 (Lester Gooch #5)' }),
    ];
    const [f] = nftVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(f?.title).toBe('unreadable nft version on 1 of 2 nodes (blue-2)');
  });
});
