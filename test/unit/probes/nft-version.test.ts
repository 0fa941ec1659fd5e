import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { nftVersionProbe } from '../../../src/probes/nft-version.js';
import { nftVersion, nftVersionLegacy } from '../../fixtures/node-outputs.js';

describe('nft-version', () => {
  it('runs nft --version and keeps the bare version', () => {
    expect(nftVersionProbe.argv(probeContext({}))).toEqual(['nft', '--version']);
    expect(nftVersionProbe.parse(nftVersion)).toBe('1.0.2');
    expect(nftVersionProbe.parse(nftVersionLegacy)).toBe('0.9.3');
    expect(
      nftVersionProbe.parse({
        exitCode: 0,
        stdout: 'nftables v1.0.6 (Lester Gooch #5)\n',
        stderr: '',
      }),
    ).toBe('1.0.6');
  });

  it('is an error on a host without nft or with odd output', () => {
    expect(
      nftVersionProbe.parse({ exitCode: 127, stdout: '', stderr: 'nft: command not found\n' }),
    ).toMatchObject({
      code: 'not-installed',
    });
    expect(nftVersionProbe.parse({ exitCode: 0, stdout: 'v1\n', stderr: '' })).toMatchObject({
      code: 'unparsable',
    });
    expect(nftVersionProbe.parse({ exitCode: 1, stdout: '', stderr: 'Error: oops\n' })).toEqual({
      kind: 'probe-error',
      code: 'failed',
      message: 'nft --version exited 1: Error: oops',
    });
  });
});
