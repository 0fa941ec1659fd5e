import { describe, expect, it } from 'vitest';
import { parseSysctlLines, parseSysctlNumber } from '../../../../src/core/parse/sysctl.js';

describe('parseSysctlNumber', () => {
  it('reads `sysctl -n` output and /proc/sys files', () => {
    expect(parseSysctlNumber('262144\n')).toBe(262144);
    expect(parseSysctlNumber('0')).toBe(0);
  });

  it('returns undefined for anything but one integer', () => {
    expect(parseSysctlNumber('')).toBeUndefined();
    expect(
      parseSysctlNumber(
        'sysctl: cannot stat /proc/sys/net/netfilter/nf_conntrack_max: No such file or directory',
      ),
    ).toBeUndefined();
    expect(parseSysctlNumber('4096\t87380\t6291456')).toBeUndefined();
  });
});

describe('parseSysctlLines', () => {
  it('reads `key = value` lines by key, and skips the keys sysctl could not read', () => {
    const values = parseSysctlLines(
      'net.netfilter.nf_conntrack_count = 1200\nnet.netfilter.nf_conntrack_max = 262144\n',
    );
    expect(values.get('net.netfilter.nf_conntrack_count')).toBe('1200');
    expect(values.get('net.netfilter.nf_conntrack_max')).toBe('262144');
    expect(parseSysctlLines('kernel.osrelease = 5.15.0-122-generic\n').size).toBe(1);
    expect(parseSysctlLines('').size).toBe(0);
  });
});
