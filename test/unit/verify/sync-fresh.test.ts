import { describe, expect, it } from 'vitest';
import { syncFreshVerification } from '../../../src/verify/sync-fresh.js';
import * as out from '../../fixtures/node-outputs.js';
import { at, metricsRead, nftablesInput, read } from './inputs.js';

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
        'last successful sync within 60 s of the read (on the node’s clock, from /healthz currentTime) ({ip_family="IPv4"} 10 s ago, {ip_family="IPv6"} 10 s ago)',
      ],
    ]);
  });

  it('judges the timestamp on the node’s own clock (its /healthz currentTime), so skew is no fault', () => {
    // The node runs 300 s ahead of the bot: its healthz says so, and its last sync was 10 s ago.
    const skewed = (ahead: number, healthz = true) => {
      const input = nftablesInput();
      const currentTime = new Date(Date.parse(at(5)) + ahead * 1000).toISOString();
      const body = `{"lastUpdated":"${currentTime}","currentTime":"${currentTime}","nodeEligible":true,"healthy":true}\n200`;
      const { healthz: _h, ...rest } = input.reads;
      const reads = healthz
        ? { ...rest, healthz: read('healthz', { exitCode: 0, stdout: body, stderr: '' }, 5) }
        : rest;
      return syncFreshVerification
        .verify({ ...input, reads, metrics: { second: metricsRead(out.metricsNft, 15 - ahead) } })
        .map((e) => [e.ok, e.verdict]);
    };
    expect(skewed(300)[0]?.[0]).toBe(true);
    expect(skewed(-300)[0]?.[0]).toBe(true);
    // Without /healthz, the bot's clock is all there is: the skew makes it unknown.
    expect(skewed(300, false)[0]?.[1]).toContain("the node's clock is ahead of the bot's");
  });

  it('fails when the last sync is older (a proxier failing to sync), or the node’s clock runs ahead', () => {
    expect(judge(100, out.metricsFailing2)[0]?.[1]).toBe(
      'expected a successful sync within 2 × syncPeriod (60 s) of the read; {ip_family="IPv4"} 95 s ago, {ip_family="IPv6"} 95 s ago',
    );
    expect(judge(20, out.metricsNft, 5)[0]?.[0]).toBe(false);
    expect(judge(-120)[0]?.[1]).toContain(
      "the last sync is stamped more than 60 s after the node's own clock",
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
