import { describe, expect, it } from 'vitest';
import { parseKlogLine } from '../../../../src/core/parse/klog.js';
import { logIpvs } from '../../../fixtures/node-outputs.js';

describe('parseKlogLine', () => {
  it('reads a structured line: level, time, source, message and fields', () => {
    expect(parseKlogLine(logIpvs[2]!)).toEqual({
      level: 'E',
      time: logIpvs[2]!.slice(1, 21),
      source: 'server.go:246',
      message: 'Kube-proxy configuration may be incomplete or incorrect',
      fields: {
        err: 'nodePortAddresses is unset; NodePort connections will be accepted on all local IPs. Consider using `--nodeport-addresses primary`',
      },
      raw: logIpvs[2],
    });
  });

  it('reads keys with spaces, lists and bare values', () => {
    const line = parseKlogLine(
      'I1201 09:42:38.552630       1 server.go:264] "kube-proxy running in dual-stack mode" primary ipFamily="IPv4" NodeIPs=["10.0.1.11","fd00::11"] fullSync=true',
    );
    expect(line?.fields).toEqual({
      'primary ipFamily': 'IPv4',
      NodeIPs: '["10.0.1.11","fd00::11"]',
      fullSync: 'true',
    });
  });

  it('reads unstructured lines of older releases and kubectl --timestamps prefixes', () => {
    expect(
      parseKlogLine('I0304 10:00:00.000001       1 server_others.go:183] Using ipvs Proxier.')
        ?.message,
    ).toBe('Using ipvs Proxier.');
    expect(
      parseKlogLine(
        '2026-12-01T09:42:38.552771Z I1201 09:42:38.552771       1 server_linux.go:231] "Using nftables Proxier"',
      )?.message,
    ).toBe('Using nftables Proxier');
    expect(
      parseKlogLine(
        'I1201 09:20:10.671986       1 shared_informer.go:313] Waiting for caches to sync for service config',
      )?.fields,
    ).toEqual({});
  });

  it('skips what is not klog', () => {
    expect(parseKlogLine('goroutine 1 [running]:')).toBeUndefined();
    expect(parseKlogLine('')).toBeUndefined();
  });
});
