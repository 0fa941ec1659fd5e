import { describe, expect, it } from 'vitest';
import { nftTableGoneVerification } from '../../../src/verify/nft-table-gone.js';
import * as out from '../../fixtures/node-outputs.js';
import { ipvsInput, read } from './inputs.js';

function judge(ip: out.NodeOutput, ip6: out.NodeOutput | null = out.nftTableMissing) {
  const input = ipvsInput();
  const { 'nft-table-ip6': _, ...reads } = input.reads;
  input.reads = {
    ...reads,
    'nft-table': read('nft-table', ip),
    ...(ip6 === null ? {} : { 'nft-table-ip6': read('nft-table-ip6', ip6) }),
  };
  return nftTableGoneVerification.verify(input).map((e) => [e.probe, e.ok, e.verdict]);
}

describe('nft-table-gone', () => {
  it('passes when both tables are gone, or left empty', () => {
    expect(judge(out.nftTableMissing).map((e) => e[1])).toEqual([true, true]);
    const empty = {
      exitCode: 0,
      stdout: '{"nftables": [{"table": {"family": "ip", "name": "kube-proxy", "handle": 1}}]}',
      stderr: '',
    };
    expect(judge(empty)[0]).toEqual([
      'nft-table-gone',
      true,
      'table ip kube-proxy is left but empty',
    ]);
  });

  it('fails when kube-proxy’s rules are still there, with the remedy', () => {
    expect(judge(out.nftTable, out.nftTableIp6)).toEqual([
      [
        'nft-table-gone',
        false,
        "expected no table ip kube-proxy; it still holds 31 chains, 2 sets and 5 maps: the IPVS kube-proxy's startup cleanup did not remove it; remove it with `nft delete table ip kube-proxy`",
      ],
      [
        'nft-table-ip6-gone',
        false,
        "expected no table ip6 kube-proxy; it still holds 16 chains, 2 sets and 5 maps: the IPVS kube-proxy's startup cleanup did not remove it; remove it with `nft delete table ip6 kube-proxy`",
      ],
    ]);
  });

  it('is unknown, so failed, when a family was not read', () => {
    expect(judge(out.nftTableMissing, null)[1]).toEqual([
      'nft-table-ip6-gone',
      false,
      'table ip6 kube-proxy was not read: unknown',
    ]);
  });
});
