import { describe, expect, it } from 'vitest';
import { failedRead, readProbe, valueOf } from '../../../src/probes/read.js';
import { unameProbe } from '../../../src/probes/uname-r.js';
import { unameR } from '../../fixtures/node-outputs.js';

describe('probe reads', () => {
  it('keeps argv, result, parsed value and time', () => {
    const read = readProbe(unameProbe, ['uname', '-r'], unameR, '2026-12-01T09:00:00.000Z');
    expect(read).toEqual({
      probe: 'uname-r',
      argv: ['uname', '-r'],
      result: unameR,
      value: '5.15.0-122-generic',
      at: '2026-12-01T09:00:00.000Z',
    });
    expect(valueOf(read)).toBe('5.15.0-122-generic');
  });

  it('records a command the shell could not run, with no value', () => {
    const read = failedRead(
      unameProbe,
      ['uname', '-r'],
      'timed-out',
      'probe pod did not start',
      'T',
    );
    expect(read).toEqual({
      probe: 'uname-r',
      argv: ['uname', '-r'],
      value: { kind: 'probe-error', code: 'timed-out', message: 'probe pod did not start' },
      at: 'T',
    });
    expect(valueOf(read)).toBeUndefined();
    expect(valueOf(undefined)).toBeUndefined();
  });
});
