import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { curlClusterIPProbe } from '../../../src/probes/curl-clusterip.js';
import { clusterIP200 } from '../../fixtures/node-outputs.js';

describe('curl-clusterip', () => {
  it('dials the target with connect and total timeouts, printing only the status', () => {
    const ctx = { ...probeContext({}), target: { host: 'fd00:10:96::a', port: 53 } };
    expect(curlClusterIPProbe.argv(ctx)).toEqual([
      'curl',
      '-sS',
      '-o',
      '/dev/null',
      '--connect-timeout',
      '2',
      '--max-time',
      '5',
      '-w',
      '%{http_code}',
      'http://[fd00:10:96::a]:53/',
    ]);
  });

  it('reads answers and refusals as values; only a missing curl is an error', () => {
    expect(curlClusterIPProbe.parse(clusterIP200)).toEqual({ kind: 'http', status: 200 });
    expect(
      curlClusterIPProbe.parse({
        exitCode: 28,
        stdout: '000',
        stderr: 'curl: (28) Connection timed out after 2001 milliseconds\n',
      }),
    ).toMatchObject({ kind: 'timed-out' });
    expect(
      curlClusterIPProbe.parse({ exitCode: 127, stdout: '', stderr: 'curl: command not found\n' }),
    ).toMatchObject({ kind: 'probe-error', code: 'not-installed' });
  });
});
