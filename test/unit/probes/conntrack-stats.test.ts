import { describe, expect, it } from 'vitest';
import { conntrackStatsProbe } from '../../../src/probes/conntrack-stats.js';
import { probeContext } from '../../../src/probes/context.js';
import { conntrackS } from '../../fixtures/node-outputs.js';

describe('conntrack-stats', () => {
  it('runs conntrack -S and reads per-CPU counters', () => {
    expect(conntrackStatsProbe.argv(probeContext({}))).toEqual(['conntrack', '-S']);
    const stats = conntrackStatsProbe.parse(conntrackS);
    expect(Array.isArray(stats) && stats.map((s) => s.counters['invalid'])).toEqual([0, 0, 0, 0]);
  });

  it('is an error without counters or without the tool', () => {
    expect(conntrackStatsProbe.parse({ exitCode: 0, stdout: '', stderr: '' })).toMatchObject({
      code: 'unparsable',
    });
    expect(
      conntrackStatsProbe.parse({
        exitCode: 1,
        stdout: '',
        stderr: 'conntrack v1.4.7 (conntrack-tools): Operation failed: Operation not permitted\n',
      }),
    ).toMatchObject({ code: 'failed' });
    expect(conntrackStatsProbe.parse({ exitCode: 127, stdout: '', stderr: '' })).toMatchObject({
      code: 'not-installed',
    });
  });
});
