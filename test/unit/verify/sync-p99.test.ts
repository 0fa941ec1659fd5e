import { describe, expect, it } from 'vitest';
import { syncP99Verification } from '../../../src/verify/sync-p99.js';
import * as out from '../../fixtures/node-outputs.js';
import { metricsRead, nftablesInput } from './inputs.js';

const judge = (metrics: ReturnType<typeof nftablesInput>['metrics']) =>
  syncP99Verification.verify({ ...nftablesInput(), metrics }).map((e) => [e.ok, e.verdict]);

describe('sync-p99', () => {
  it('reports the p99 after against the IPVS baseline', () => {
    expect(
      judge({
        baseline: metricsRead(out.metricsIpvs, -60),
        second: metricsRead(out.metricsNft, 15),
      }),
    ).toEqual([
      [
        true,
        'sync p99 0.00398 s over 2 syncs on nftables (0.5× the baseline); IPVS baseline 0.00796 s over 2 syncs',
      ],
    ]);
  });

  it('stays informational without a baseline or before the first sync', () => {
    expect(judge({ second: metricsRead(out.metricsNft, 15) })).toEqual([
      [true, 'sync p99 0.00398 s over 2 syncs on nftables; IPVS baseline not read'],
    ]);
    const empty: out.NodeOutput = {
      exitCode: 0,
      stdout:
        '# TYPE kubeproxy_sync_proxy_rules_duration_seconds histogram\nkubeproxy_sync_proxy_rules_duration_seconds_bucket{le="0.001"} 0\nkubeproxy_sync_proxy_rules_duration_seconds_bucket{le="+Inf"} 0\nkubeproxy_sync_proxy_rules_duration_seconds_sum 0\nkubeproxy_sync_proxy_rules_duration_seconds_count 0\n',
      stderr: '',
    };
    expect(judge({ second: metricsRead(empty, 15) })[0]).toEqual([
      true,
      'sync p99 no syncs observed yet on nftables; IPVS baseline not read',
    ]);
  });

  it('fails only when the new value cannot be read', () => {
    expect(
      judge({ second: metricsRead({ exitCode: 0, stdout: 'up 1\n', stderr: '' }, 15) })[0],
    ).toEqual([
      false,
      'expected the kubeproxy_sync_proxy_rules_duration_seconds histogram on /metrics; it is absent',
    ]);
    expect(judge({ baseline: metricsRead(out.metricsIpvs, -60) })[0]?.[0]).toBe(false);
  });
});
