import { describe, expect, it } from 'vitest';
import { syncFreshVerification } from '../../../src/verify/sync-fresh.js';
import * as out from '../../fixtures/node-outputs.js';
import { metricsRead, nftablesInput } from './inputs.js';

const judge = (seconds: number, result = out.metricsNft, syncPeriodSeconds = 30) =>
  syncFreshVerification
    .verify({
      ...nftablesInput(),
      syncPeriodSeconds,
      metrics: { second: metricsRead(result, seconds) },
    })
    .map((e) => [e.ok, e.verdict]);

describe('sync-fresh', () => {
  it('passes when the last sync is within 2 × syncPeriod of the read', () => {
    expect(judge(15)).toEqual([
      [
        true,
        'last successful sync within 60 s of the read ({ip_family="IPv4"} 15 s ago, {ip_family="IPv6"} 15 s ago)',
      ],
    ]);
  });

  it('fails when the last sync is older (a proxier failing to sync), or the node’s clock runs ahead', () => {
    expect(judge(100, out.metricsFailing2)[0]?.[1]).toBe(
      'expected a successful sync within 2 × syncPeriod (60 s) of the read; {ip_family="IPv4"} 100 s ago, {ip_family="IPv6"} 100 s ago',
    );
    expect(judge(15, out.metricsNft, 5)[0]?.[0]).toBe(false);
    expect(judge(-120)[0]?.[1]).toContain(
      "the node's clock is ahead of the bot's by more than 60 s",
    );
  });

  it('is unknown, so failed, without the metric or the read', () => {
    expect(judge(15, { exitCode: 0, stdout: 'up 1\n', stderr: '' })).toEqual([
      [
        false,
        'expected kubeproxy_sync_proxy_rules_last_timestamp_seconds on /metrics; it is absent',
      ],
    ]);
    expect(syncFreshVerification.verify({ ...nftablesInput(), metrics: {} })[0]?.verdict).toBe(
      'kube-proxy’s /metrics was not read: unknown',
    );
  });
});
