import { describe, expect, it } from 'vitest';
import { parseSysctlNumber, parseSysctlNumbers } from '../../../../src/core/parse/sysctl.js';

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

describe('parseSysctlNumbers', () => {
  it('reads `sysctl key key` output', () => {
    const values = parseSysctlNumbers(
      'net.netfilter.nf_conntrack_count = 1200\nnet.netfilter.nf_conntrack_max = 262144\n',
    );
    expect(values.get('net.netfilter.nf_conntrack_count')).toBe(1200);
    expect(values.get('net.netfilter.nf_conntrack_max')).toBe(262144);
  });

  it('skips non-numeric values and noise', () => {
    const values = parseSysctlNumbers('net.ipv4.tcp_rmem = 4096\t87380\t6291456\ngarbage\n');
    expect(values.size).toBe(0);
  });
});
