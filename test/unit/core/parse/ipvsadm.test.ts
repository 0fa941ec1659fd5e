import { describe, expect, it } from 'vitest';
import { ipvsModuleMissing, parseIpvsadmList } from '../../../../src/core/parse/ipvsadm.js';
import { parseIpvsadmSave } from '../../../../src/core/parse/ipvsadm-save.js';
import { ipvsEmpty, ipvsList, ipvsSave } from '../../../fixtures/node-outputs.js';

describe('parseIpvsadmList', () => {
  it('reads virtual servers with their schedulers and real servers', () => {
    const result = parseIpvsadmList(ipvsList.stdout);
    if (!result.ok) throw new Error(result.error);
    expect(result.value.version).toBe('1.2.1');
    expect(result.value.virtualServers).toHaveLength(7);
    expect(result.value.virtualServers[1]).toEqual({
      protocol: 'TCP',
      address: '10.96.0.1',
      port: 443,
      scheduler: 'rr',
      flags: [],
      realServers: [
        {
          address: '10.0.0.10',
          port: 6443,
          forward: 'Masq',
          weight: 1,
          activeConn: 0,
          inActConn: 0,
        },
      ],
    });
    expect(result.value.virtualServers.at(-1)?.protocol).toBe('UDP');
  });

  it('reads the empty table: exactly the header', () => {
    expect(parseIpvsadmList(ipvsEmpty.stdout)).toEqual({
      ok: true,
      value: { version: '1.2.1', virtualServers: [] },
    });
  });

  it('reads IPv6, FWM and persistent services', () => {
    const text = [
      'IP Virtual Server version 1.2.1 (size=4096)',
      'Prot LocalAddress:Port Scheduler Flags',
      '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
      'TCP  [fd00:10:96::1]:443 rr persistent 10800',
      '  -> [fd00::10]:6443             Masq    1      3          12        ',
      'FWM  7 wlc ops',
    ].join('\n');
    const result = parseIpvsadmList(text);
    if (!result.ok) throw new Error(result.error);
    expect(result.value.virtualServers).toEqual([
      {
        protocol: 'TCP',
        address: 'fd00:10:96::1',
        port: 443,
        scheduler: 'rr',
        flags: ['persistent 10800'],
        realServers: [
          {
            address: 'fd00::10',
            port: 6443,
            forward: 'Masq',
            weight: 1,
            activeConn: 3,
            inActConn: 12,
          },
        ],
      },
      { protocol: 'FWM', address: '7', port: 0, scheduler: 'wlc', flags: ['ops'], realServers: [] },
    ]);
  });

  it('refuses output without the header', () => {
    expect(parseIpvsadmList('').ok).toBe(false);
    expect(parseIpvsadmList("Can't initialize ipvs: Protocol not available").ok).toBe(false);
  });

  it('knows the missing-module error (observed, exit 2)', () => {
    expect(
      ipvsModuleMissing(
        "Can't initialize ipvs: Protocol not available\nAre you sure that IP Virtual Server is built in the kernel or as module?\n",
      ),
    ).toBe(true);
    expect(ipvsModuleMissing('Memory allocation problem')).toBe(false);
  });
});

describe('parseIpvsadmSave', () => {
  it('reads the save format into the same shape as the listing', () => {
    const saved = parseIpvsadmSave(ipvsSave.stdout);
    const listed = parseIpvsadmList(ipvsList.stdout);
    if (!saved.ok || !listed.ok) throw new Error('unparsable');
    const strip = (t: typeof listed.value) =>
      t.virtualServers.map((vs) => ({
        ...vs,
        realServers: vs.realServers.map(({ address, port, forward, weight }) => ({
          address,
          port,
          forward,
          weight,
        })),
      }));
    expect(strip(saved.value)).toEqual(strip(listed.value));
  });

  it('reads persistence, other forwarding methods and an empty save', () => {
    const result = parseIpvsadmSave(
      '-A -u [fd00::a]:53 -s sh -p 600\n-a -u [fd00::a]:53 -r [fd00::5]:53 -g -w 2\n',
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.value.virtualServers).toEqual([
      {
        protocol: 'UDP',
        address: 'fd00::a',
        port: 53,
        scheduler: 'sh',
        flags: ['persistent 600'],
        realServers: [{ address: 'fd00::5', port: 53, forward: 'Route', weight: 2 }],
      },
    ]);
    expect(parseIpvsadmSave('')).toEqual({ ok: true, value: { virtualServers: [] } });
  });

  it('refuses lines that are not ipvsadm rules', () => {
    expect(parseIpvsadmSave('TCP  10.96.0.1:443 rr').ok).toBe(false);
    expect(parseIpvsadmSave('-a -t 10.96.0.1:443 -r 10.0.0.10:6443 -m -w 1').ok).toBe(false);
  });
});
