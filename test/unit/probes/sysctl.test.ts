import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import {
  conntrackCountProbe,
  conntrackMaxProbe,
  routeLocalnetProbe,
} from '../../../src/probes/sysctl.js';
import { conntrackCount, conntrackMax, routeLocalnet } from '../../fixtures/node-outputs.js';

describe('sysctl probes', () => {
  const ctx = probeContext({});

  it('read one key each with sysctl -n', () => {
    expect(conntrackCountProbe.argv(ctx)).toEqual([
      'sysctl',
      '-n',
      'net.netfilter.nf_conntrack_count',
    ]);
    expect(conntrackMaxProbe.argv(ctx)).toEqual(['sysctl', '-n', 'net.netfilter.nf_conntrack_max']);
    expect(routeLocalnetProbe.argv(ctx)).toEqual([
      'sysctl',
      '-n',
      'net.ipv4.conf.all.route_localnet',
    ]);
    expect(conntrackCountProbe.parse(conntrackCount)).toBe(1200);
    expect(conntrackMaxProbe.parse(conntrackMax)).toBe(262144);
    expect(routeLocalnetProbe.parse(routeLocalnet)).toBe(0);
  });

  it('are errors for a missing key or text', () => {
    expect(
      conntrackCountProbe.parse({
        exitCode: 255,
        stdout: '',
        stderr:
          'sysctl: cannot stat /proc/sys/net/netfilter/nf_conntrack_count: No such file or directory\n',
      }),
    ).toEqual({
      kind: 'probe-error',
      code: 'failed',
      message:
        'sysctl -n net.netfilter.nf_conntrack_count exited 255: sysctl: cannot stat /proc/sys/net/netfilter/nf_conntrack_count: No such file or directory',
    });
    expect(conntrackMaxProbe.parse({ exitCode: 0, stdout: 'x\n', stderr: '' })).toMatchObject({
      code: 'unparsable',
    });
  });
});
