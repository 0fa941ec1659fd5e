import { describe, expect, it } from 'vitest';
import {
  allPassed,
  ipvsVerifications,
  nftablesVerifications,
  runVerifications,
} from '../../../src/verify/index.js';
import type { Verification } from '../../../src/verify/types.js';
import { ipvsInput, nftablesInput } from './inputs.js';

describe('verification lists', () => {
  it('pass a clean cutover, with one piece of evidence per fact', () => {
    const found = runVerifications(nftablesVerifications, nftablesInput());
    expect(found.filter((e) => !e.ok)).toEqual([]);
    expect(found.map((e) => e.probe)).toEqual([
      'nft-table',
      'ipvs-empty',
      'kube-ipvs0-gone',
      'nftables-log',
      'healthz',
      'nftables-sync-failures',
      'sync-fresh',
      'clusterip-from-node',
      'nodeport-from-node',
      'nodeport-from-peer',
      'sync-p99',
    ]);
    expect(allPassed(found)).toBe(true);
    for (const e of found) {
      expect(e.node).toBe('general-1');
      expect(e.step).toBe('verify');
      expect(e.verdict).not.toContain('\n');
    }
  });

  it('pass a clean rollback', () => {
    const found = runVerifications(ipvsVerifications, ipvsInput());
    expect(found.filter((e) => !e.ok)).toEqual([]);
    expect(found.map((e) => e.probe)).toEqual([
      'ipvs-services',
      'kube-ipvs0-present',
      'nft-table-gone',
      'nft-table-ip6-gone',
      'ipvs-log',
      'healthz',
      'clusterip-from-node',
      'nodeport-from-node',
      'nodeport-from-peer',
    ]);
  });

  it('fail the cutover of a node that still runs IPVS', () => {
    const ipvs = ipvsInput();
    const found = runVerifications(nftablesVerifications, {
      ...nftablesInput(),
      reads: ipvs.reads,
      log: ipvs.log,
    });
    const failed = found.filter((e) => !e.ok).map((e) => e.probe);
    expect(failed).toEqual(
      expect.arrayContaining(['nft-table', 'ipvs-empty', 'kube-ipvs0-gone', 'nftables-log']),
    );
    expect(allPassed(found)).toBe(false);
  });

  it('turn a verification that throws or says nothing into failed evidence', () => {
    const broken: Verification<ReturnType<typeof nftablesInput>> = {
      id: 'broken',
      title: 'broken',
      verify: () => {
        throw new Error('bug');
      },
    };
    const silent = { id: 'silent', title: 'silent', verify: () => [] };
    const found = runVerifications([broken, silent], nftablesInput());
    expect(found.map((e) => [e.probe, e.ok, e.verdict])).toEqual([
      ['broken', false, 'broken: could not be judged (bug)'],
      ['silent', false, 'silent: no evidence produced'],
    ]);
    expect(allPassed([])).toBe(false);
  });
});
