import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { metricsProbe } from '../../../src/probes/metrics.js';
import { metricsNft } from '../../fixtures/node-outputs.js';

describe('metrics', () => {
  it('curls /metrics on the metrics address', () => {
    expect(metricsProbe.argv(probeContext({ metricsBindAddress: '0.0.0.0:10249' }))).toEqual([
      'curl',
      '-sS',
      '--max-time',
      '5',
      'http://127.0.0.1:10249/metrics',
    ]);
    const m = metricsProbe.parse(metricsNft);
    expect(
      'families' in m && m.families.has('kubeproxy_sync_proxy_rules_nftables_sync_failures_total'),
    ).toBe(true);
  });

  it('is an error for an empty body, a 404 page or no answer', () => {
    expect(metricsProbe.parse({ exitCode: 0, stdout: '', stderr: '' })).toMatchObject({
      code: 'unparsable',
    });
    expect(
      metricsProbe.parse({ exitCode: 0, stdout: '404 page not found\n', stderr: '' }),
    ).toMatchObject({ code: 'unparsable' });
    expect(
      metricsProbe.parse({ exitCode: 28, stdout: '', stderr: 'curl: (28) Operation timed out\n' }),
    ).toMatchObject({ code: 'timed-out' });
  });
});
