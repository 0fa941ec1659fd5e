import { describe, expect, it } from 'vitest';
import { parseSysctlNumber } from '../../../../src/core/parse/sysctl.js';

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
