import { describe, expect, it } from 'vitest';
import { readKubeProxyLog } from '../../../../src/core/parse/kube-proxy-log.js';
import { logFailing, logIpvs, logNft } from '../../../fixtures/node-outputs.js';

describe('readKubeProxyLog', () => {
  it('finds the proxier of a clean nftables start', () => {
    const log = readKubeProxyLog(logNft);
    expect(log.proxier).toEqual({ mode: 'nftables', index: 5, raw: logNft[5] });
    expect(log.syncErrors).toEqual([]);
    expect(log.startErrors).toEqual([]);
    expect(log.lines).toBe(logNft.length);
  });

  it('does not count IPVS mode’s config warning as a sync error', () => {
    const log = readKubeProxyLog(logIpvs);
    expect(log.proxier?.mode).toBe('ipvs');
    expect(log.syncErrors).toEqual([]);
  });

  it('finds "nftables sync failed" after the proxier line, with its err', () => {
    const log = readKubeProxyLog(logFailing);
    expect(log.syncErrors).toEqual([
      {
        index: logFailing.length - 1,
        message: 'nftables sync failed',
        err: '/dev/stdin:3:1-61: Error: Could not process rule: Device or resource busy',
        raw: logFailing.at(-1),
      },
    ]);
  });

  it('reads the other sync failures kube-proxy logs', () => {
    const log = readKubeProxyLog([
      'I0101 00:00:00.000000       1 server_linux.go:185] "Using ipvs Proxier"',
      'E0101 00:00:01.000000       1 proxier.go:1520] "Failed to execute iptables-restore" err="exit status 4"',
      'I0101 00:00:01.000001       1 proxier.go:1103] "Sync failed" ipFamily="IPv4" retryingTime="30s"',
      'E0101 00:00:02.000000       1 proxier.go:1700] "Failed to sync endpoint for service" err="x" servicePortName="a/b:c"',
      'E0101 00:00:03.000000       1 proxier.go:1200] "Failed to list existing sets" err="failed to run nft: signal: segmentation fault (core dumped)"',
    ]);
    expect(log.syncErrors.map((e) => e.message)).toEqual([
      'Failed to execute iptables-restore',
      'Sync failed',
      'Failed to sync endpoint for service',
      'Failed to list existing sets',
    ]);
  });

  it('takes the last proxier line and a start failure', () => {
    const log = readKubeProxyLog([
      'I0101 00:00:00.000000       1 server_others.go:183] Using ipvs Proxier.',
      'E0101 00:00:00.100000       1 proxier.go:1520] "nftables sync failed" err="old run"',
      'I0101 00:01:00.000000       1 server_linux.go:231] "Using nftables Proxier"',
      'E0101 00:01:00.000100       1 server.go:556] "Error running ProxyServer" err="unable to create proxier: unable to create ipv4 proxier: kube-proxy in nftables mode requires kernel 5.13 or later"',
      'E0101 00:01:00.000200       1 run.go:72] "command failed" err="unable to create proxier: unable to create ipv4 proxier: kube-proxy in nftables mode requires kernel 5.13 or later"',
    ]);
    expect(log.proxier?.mode).toBe('nftables');
    expect(log.syncErrors).toEqual([]);
    expect(log.startErrors.map((e) => e.message)).toEqual([
      'Error running ProxyServer',
      'command failed',
    ]);
  });

  it('has no proxier in an empty or cut log', () => {
    expect(readKubeProxyLog([])).toEqual({ syncErrors: [], startErrors: [], lines: 0 });
    expect(readKubeProxyLog(logNft.slice(10)).proxier).toBeUndefined();
  });
});
