import { describe, expect, it } from 'vitest';
import { ipvsLogVerification, nftablesLogVerification } from '../../../src/verify/proxier-log.js';
import * as out from '../../fixtures/node-outputs.js';
import { logRead, nftablesInput } from './inputs.js';

const judge = (lines: readonly string[], v = nftablesLogVerification) =>
  v.verify({ ...nftablesInput(), log: logRead(lines) }).map((e) => [e.probe, e.ok, e.verdict]);

describe('proxier-log', () => {
  it('passes on "Using nftables Proxier" with no sync errors after it', () => {
    expect(judge(out.logNft)).toEqual([
      [
        'nftables-log',
        true,
        'log says "Using nftables Proxier" and shows no sync errors in the 14 lines after it',
      ],
    ]);
    expect(judge(out.logIpvs, ipvsLogVerification)[0]?.[1]).toBe(true);
  });

  it('fails on sync errors, naming the first', () => {
    expect(judge(out.logFailing)).toEqual([
      [
        'nftables-log',
        false,
        'log says "Using nftables Proxier", then 1 sync error, the first: "nftables sync failed" err="/dev/stdin:3:1-61: Error: Could not process rule: Device or resource busy"',
      ],
    ]);
  });

  it('fails on the other proxier, on a failed start and on a log without the line', () => {
    expect(judge(out.logIpvs)[0]?.[2]).toBe(
      'expected "Using nftables Proxier"; the log says "Using ipvs Proxier"',
    );
    expect(
      judge([
        'I0101 00:01:00.000000       1 server_linux.go:231] "Using nftables Proxier"',
        'E0101 00:01:00.000100       1 server.go:556] "Error running ProxyServer" err="unable to create proxier: unable to create ipv4 proxier: kube-proxy in nftables mode requires kernel 5.13 or later"',
      ])[0]?.[2],
    ).toBe(
      'expected "Using nftables Proxier"; kube-proxy failed to start: "Error running ProxyServer" err="unable to create proxier: unable to create ipv4 proxier: kube-proxy in nftables mode requires kernel 5.13 or later"',
    );
    expect(judge(out.logNft.slice(8))[0]?.[2]).toBe(
      'expected "Using nftables Proxier"; no "Using … Proxier" line in 12 lines (read the whole log of the current container, not a --tail)',
    );
  });

  it('is unknown, so failed, when the log could not be read', () => {
    const input = {
      ...nftablesInput(),
      log: {
        probe: 'kube-proxy-log',
        argv: [],
        value: {
          kind: 'probe-error',
          code: 'failed',
          message: 'pods "kube-proxy-nftables-x" not found',
        },
        at: 'T',
      } as const,
    };
    expect(nftablesLogVerification.verify(input).map((e) => [e.ok, e.verdict])).toEqual([
      [false, 'could not read kube-proxy’s log: pods "kube-proxy-nftables-x" not found'],
    ]);
  });
});
