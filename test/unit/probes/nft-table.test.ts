import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { nftTableIp6Probe, nftTableProbe } from '../../../src/probes/nft-table.js';
import { nftTable, nftTableIp6, nftTableMissing } from '../../fixtures/node-outputs.js';

describe('nft-table', () => {
  it('lists kube-proxy’s table per family, with elements (not --terse)', () => {
    expect(nftTableProbe.argv(probeContext({}))).toEqual([
      'nft',
      '-j',
      'list',
      'table',
      'ip',
      'kube-proxy',
    ]);
    expect(nftTableIp6Probe.argv(probeContext({}))).toEqual([
      'nft',
      '-j',
      'list',
      'table',
      'ip6',
      'kube-proxy',
    ]);
    const read = nftTableProbe.parse(nftTable);
    expect(
      'present' in read && read.present && read.table.sets.get('cluster-ips')?.elements,
    ).toEqual(['10.96.0.1', '10.96.0.10', '10.102.33.71']);
    const ip6 = nftTableIp6Probe.parse(nftTableIp6);
    expect('present' in ip6 && ip6.present && ip6.table.family).toBe('ip6');
  });

  it('reads a missing table as absent, not as an error', () => {
    expect(nftTableProbe.parse(nftTableMissing)).toEqual({ present: false });
  });

  it('is an error when nft fails otherwise or prints another table', () => {
    expect(
      nftTableProbe.parse({
        exitCode: 1,
        stdout: '',
        stderr: 'Error: Could not process rule: Operation not permitted\n',
      }),
    ).toMatchObject({ code: 'failed' });
    expect(nftTableIp6Probe.parse(nftTable)).toMatchObject({ code: 'unparsable' });
    expect(
      nftTableProbe.parse({ exitCode: 0, stdout: 'table ip kube-proxy {\n', stderr: '' }),
    ).toMatchObject({ code: 'unparsable' });
  });
});
