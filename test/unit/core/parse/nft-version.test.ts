import { describe, expect, it } from 'vitest';
import { nftVersion, parseNftVersion } from '../../../../src/core/parse/nft-version.js';

describe('parseNftVersion', () => {
  it('reads `nft --version` as Debian 12 prints it', () => {
    expect(parseNftVersion('nftables v1.0.6 (Lester Gooch #5)\n')).toBe('1.0.6');
  });

  it('reads the versions knftables tests with, old ones included', () => {
    expect(parseNftVersion('nftables v1.0.7 (Old Doc Yak)')).toBe('1.0.7');
    expect(parseNftVersion('nftables v0.9.3 (Topsy)')).toBe('0.9.3');
    expect(parseNftVersion('nftables v1.1 (Commodore Bullmoose)')).toBe('1.1');
  });

  it('keeps the first three parts of a four-part version', () => {
    expect(parseNftVersion('nftables v1.0.6.1 (Lester Gooch #5)')).toBe('1.0.6');
  });

  it('tolerates the multi-line `nft -V` output', () => {
    const text = [
      'nftables v1.0.6 (Lester Gooch #5)',
      '  cli:\t\teditline',
      '  json:\t\tyes',
      '  minigmp:\tno',
      '  libxtables:\tyes',
      '',
    ].join('\n');
    expect(parseNftVersion(text)).toBe('1.0.6');
  });

  it('returns undefined on garbage and error output', () => {
    expect(parseNftVersion('')).toBeUndefined();
    expect(parseNftVersion('sh: 1: nft: not found')).toBeUndefined();
    expect(parseNftVersion('nftables vX (broken)')).toBeUndefined();
    expect(parseNftVersion('iptables v1.8.7 (nf_tables)')).toBeUndefined();
  });
});

describe('nftVersion', () => {
  it('reads the stored form, with or without a leading v', () => {
    expect(nftVersion('1.0.6')).toMatchObject({ major: 1, minor: 0, patch: 6 });
    expect(nftVersion('v1.1.3')).toMatchObject({ major: 1, minor: 1, patch: 3 });
    expect(nftVersion(' 1.1 ')).toMatchObject({ major: 1, minor: 1, patch: 0 });
    expect(nftVersion('1.0.6.1')).toMatchObject({ major: 1, minor: 0, patch: 6 });
  });

  it('refuses anything but a bare version', () => {
    expect(nftVersion('')).toBeUndefined();
    expect(nftVersion('garbage')).toBeUndefined();
    expect(nftVersion('v1.0.6-ish')).toBeUndefined();
    expect(nftVersion('nftables v1.0.6 (Lester Gooch #5)')).toBeUndefined();
  });
});
