import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { hostAddressesProbe } from '../../../src/probes/host-addresses.js';
import { hostAddressesNft } from '../../fixtures/node-outputs.js';

describe('host-addresses', () => {
  it('lists addresses as JSON', () => {
    expect(hostAddressesProbe.argv(probeContext({}))).toEqual(['ip', '-j', 'addr']);
    const links = hostAddressesProbe.parse(hostAddressesNft);
    expect(Array.isArray(links) && links.flatMap((l) => l.addresses.map((a) => a.local))).toEqual([
      '127.0.0.1',
      '::1',
      '10.30.1.11',
    ]);
  });

  it('is an error when ip fails or prints text', () => {
    expect(
      hostAddressesProbe.parse({
        exitCode: 1,
        stdout: '',
        stderr: 'Cannot open netlink socket: Permission denied\n',
      }),
    ).toMatchObject({ code: 'failed' });
    expect(
      hostAddressesProbe.parse({
        exitCode: 0,
        stdout: '1: lo: <LOOPBACK,UP> mtu 65536\n',
        stderr: '',
      }),
    ).toMatchObject({ code: 'unparsable' });
  });
});
