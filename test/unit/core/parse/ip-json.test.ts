import { describe, expect, it } from 'vitest';
import { ipDeviceMissing, parseIpJson } from '../../../../src/core/parse/ip-json.js';
import {
  hostAddressesIpvs,
  kubeIpvs0Missing,
  kubeIpvs0Present,
} from '../../../fixtures/node-outputs.js';

describe('parseIpJson', () => {
  it('reads a link (ip -j link show kube-ipvs0)', () => {
    expect(parseIpJson(kubeIpvs0Present.stdout)).toEqual({
      ok: true,
      value: [
        {
          ifindex: 3,
          name: 'kube-ipvs0',
          flags: ['BROADCAST', 'NOARP'],
          operstate: 'DOWN',
          linkType: 'ether',
          addresses: [],
        },
      ],
    });
  });

  it('reads every address (ip -j addr), kube-ipvs0’s Service IPs included', () => {
    const result = parseIpJson(hostAddressesIpvs.stdout);
    if (!result.ok) throw new Error(result.error);
    expect(result.value.map((l) => l.name)).toEqual(['lo', 'eth0', 'kube-ipvs0']);
    expect(result.value[1]?.addresses).toEqual([
      { family: 'inet', local: '10.0.1.11', prefixlen: 24, scope: 'global' },
    ]);
    expect(result.value[2]?.addresses.map((a) => a.local)).toEqual([
      '10.96.0.1',
      '10.96.0.10',
      '10.104.27.183',
      '10.109.88.41',
    ]);
  });

  it('skips the empty objects a family filter leaves (ip -j -4 addr)', () => {
    const result = parseIpJson(
      '[{},{"ifindex":2,"ifname":"eth0","flags":[],"operstate":"UP","addr_info":[{"family":"inet","local":"10.0.0.5","prefixlen":24}]}]',
    );
    expect(result.ok && result.value.map((l) => l.name)).toEqual(['eth0']);
  });

  it('refuses empty or non-array output', () => {
    expect(parseIpJson(kubeIpvs0Missing.stdout)).toEqual({
      ok: false,
      error: 'ip -j: empty output',
    });
    expect(parseIpJson('{"ifname":"eth0"}')).toEqual({
      ok: false,
      error: 'ip -j: not a JSON array',
    });
  });

  it('knows iproute2’s missing-device wording (observed)', () => {
    expect(kubeIpvs0Missing.exitCode).toBe(1);
    expect(ipDeviceMissing(kubeIpvs0Missing.stderr)).toBe(true);
    expect(ipDeviceMissing('Cannot find device "kube-ipvs0"')).toBe(true);
    expect(ipDeviceMissing('RTNETLINK answers: Operation not permitted')).toBe(false);
  });
});
