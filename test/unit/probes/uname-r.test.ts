import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { unameProbe } from '../../../src/probes/uname-r.js';
import { unameLegacy, unameR } from '../../fixtures/node-outputs.js';

describe('uname-r', () => {
  it('runs uname -r and reads the kernel', () => {
    expect(unameProbe.argv(probeContext({}))).toEqual(['uname', '-r']);
    expect(unameProbe.parse(unameR)).toBe('5.15.0-122-generic');
    expect(unameProbe.parse(unameLegacy)).toBe('5.4.0-80-generic');
  });

  it('is an error when it cannot run or prints no version', () => {
    expect(
      unameProbe.parse({ exitCode: 127, stdout: '', stderr: 'uname: command not found\n' }),
    ).toEqual({
      kind: 'probe-error',
      code: 'not-installed',
      message: 'uname is not in the probe image (exit 127: uname: command not found)',
    });
    expect(unameProbe.parse({ exitCode: 0, stdout: 'Linux\n', stderr: '' })).toMatchObject({
      code: 'unparsable',
    });
    expect(unameProbe.parse({ exitCode: 124, stdout: '', stderr: '' })).toMatchObject({
      code: 'timed-out',
    });
  });
});
