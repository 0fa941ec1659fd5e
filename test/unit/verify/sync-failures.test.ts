import { describe, expect, it } from 'vitest';
import { syncFailuresVerification } from '../../../src/verify/sync-failures.js';
import * as out from '../../fixtures/node-outputs.js';
import { metricsRead, nftablesInput } from './inputs.js';

const judge = (metrics: ReturnType<typeof nftablesInput>['metrics']) =>
  syncFailuresVerification.verify({ ...nftablesInput(), metrics }).map((e) => [e.ok, e.verdict]);

const unlabelled = (n: number): out.NodeOutput => ({
  exitCode: 0,
  stdout: `# TYPE kubeproxy_sync_proxy_rules_nftables_sync_failures_total counter\nkubeproxy_sync_proxy_rules_nftables_sync_failures_total ${n}\n`,
  stderr: '',
});

describe('nftables-sync-failures', () => {
  it('passes when the counter is present and steady, labelled (v1.33+) or not', () => {
    expect(
      judge({ first: metricsRead(out.metricsNft, 5), second: metricsRead(out.metricsNft, 15) }),
    ).toEqual([
      [
        true,
        'kubeproxy_sync_proxy_rules_nftables_sync_failures_total present and unchanged over 10 s ({ip_family="IPv4"} 0, {ip_family="IPv6"} 0)',
      ],
    ]);
    expect(
      judge({ first: metricsRead(unlabelled(2), 5), second: metricsRead(unlabelled(2), 35) })[0],
    ).toEqual([
      true,
      'kubeproxy_sync_proxy_rules_nftables_sync_failures_total present and unchanged over 30 s (total 2)',
    ]);
  });

  it('fails when the counter grows between the reads', () => {
    expect(
      judge({
        first: metricsRead(out.metricsFailing1, 40),
        second: metricsRead(out.metricsFailing2, 100),
      }),
    ).toEqual([
      [
        false,
        'expected no new nftables sync failures; kubeproxy_sync_proxy_rules_nftables_sync_failures_total{ip_family="IPv4"} 2 → 4, kubeproxy_sync_proxy_rules_nftables_sync_failures_total{ip_family="IPv6"} 2 → 4 within 60 s',
      ],
    ]);
  });

  it('passes a counter with no series (from v1.33 it appears with its first failure), and fails one that went down', () => {
    const [absent] = judge({
      first: metricsRead(out.metricsIpvs, 5),
      second: metricsRead(out.metricsIpvs, 15),
    });
    expect(absent?.[0]).toBe(true);
    expect(absent?.[1]).toContain('has no series in either read: no nftables sync failed');
    const [appeared] = judge({
      first: metricsRead(out.metricsIpvs, 5),
      second: metricsRead(unlabelled(2), 15),
    });
    expect(appeared?.[0]).toBe(false);
    const [reset] = judge({
      first: metricsRead(unlabelled(3), 5),
      second: metricsRead(unlabelled(0), 15),
    });
    expect(reset?.[1]).toContain('kube-proxy restarted between the reads');
  });

  it('is unknown, so failed, without two reads', () => {
    expect(judge({ second: metricsRead(out.metricsNft, 15) })).toEqual([
      [false, 'kube-proxy’s /metrics (first read) was not read: unknown'],
    ]);
    expect(
      judge({
        first: metricsRead(out.metricsNft, 5),
        second: metricsRead(
          {
            exitCode: 7,
            stdout: '',
            stderr:
              "curl: (7) Failed to connect to 127.0.0.1 port 10249 after 0 ms: Couldn't connect to server\n",
          },
          15,
        ),
      })[0]?.[1],
    ).toBe(
      "could not read kube-proxy’s /metrics (second read): kube-proxy’s /metrics: curl: (7) Failed to connect to 127.0.0.1 port 10249 after 0 ms: Couldn't connect to server",
    );
  });
});
