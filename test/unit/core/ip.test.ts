import { describe, expect, it } from 'vitest';
import {
  cidrContains,
  hostPort,
  ipFamily,
  isLoopbackOrLinkLocal,
  normalizeIp,
  parseCidr,
  splitHostPort,
} from '../../../src/core/ip.js';

describe('ip', () => {
  it('tells the families apart and rejects non-addresses', () => {
    expect(ipFamily('10.96.0.1')).toBe('IPv4');
    expect(ipFamily('fd00:10:96::a')).toBe('IPv6');
    expect(ipFamily('::ffff:10.0.0.1')).toBe('IPv6');
    expect(ipFamily('None')).toBeUndefined();
    expect(ipFamily('')).toBeUndefined();
    expect(ipFamily('10.96.0.256')).toBeUndefined();
    expect(ipFamily('1::2::3')).toBeUndefined();
  });

  it('normalises IPv6 the way nft and the API print it', () => {
    expect(normalizeIp('FD00:0010:0096:0000:0000:0000:0000:000A')).toBe('fd00:10:96::a');
    expect(normalizeIp('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1');
    expect(normalizeIp('::1')).toBe('::1');
    expect(normalizeIp('10.0.0.1')).toBe('10.0.0.1');
  });

  it('matches CIDRs per family', () => {
    const v4 = parseCidr('10.0.0.0/8')!;
    expect(cidrContains(v4, '10.200.1.2')).toBe(true);
    expect(cidrContains(v4, '192.168.50.21')).toBe(false);
    expect(cidrContains(v4, 'fd00::1')).toBe(false);
    expect(cidrContains(parseCidr('::/0')!, 'fd00::1')).toBe(true);
    expect(cidrContains(parseCidr('10.0.1.11')!, '10.0.1.11')).toBe(true);
    expect(cidrContains(parseCidr('10.0.1.11')!, '10.0.1.12')).toBe(false);
    expect(parseCidr('10.0.0.0/33')).toBeUndefined();
    expect(parseCidr('10.0.0.0/')).toBeUndefined();
    expect(parseCidr('primary')).toBeUndefined();
  });

  it('knows loopback and link-local', () => {
    expect(isLoopbackOrLinkLocal('127.0.0.1')).toBe(true);
    expect(isLoopbackOrLinkLocal('169.254.20.10')).toBe(true);
    expect(isLoopbackOrLinkLocal('fe80::1')).toBe(true);
    expect(isLoopbackOrLinkLocal('10.0.0.1')).toBe(false);
  });

  it('writes and splits host:port with IPv6 brackets', () => {
    expect(hostPort('fd00::1', 443)).toBe('[fd00::1]:443');
    expect(hostPort('10.0.0.1', 80)).toBe('10.0.0.1:80');
    expect(splitHostPort('[fd00::1]:443')).toEqual({ host: 'fd00::1', port: 443 });
    expect(splitHostPort('10.96.0.1:443')).toEqual({ host: '10.96.0.1', port: 443 });
    expect(splitHostPort('10.96.0.1')).toBeUndefined();
  });
});
