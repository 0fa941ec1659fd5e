// /metrics per release and mode: the families pkg/proxy/metrics/metrics.go RegisterMetrics
// registers, when a labelled series first exists, bucket bounds, and sync costs per mode.
import { describe, expect, it } from 'vitest';
import { goFloat, PromWriter } from '../../../../src/node/kube-proxy/prom-text.js';
import { cluster, configText, service, sh, slice, startAll, t0 } from '../fixtures.js';

function scrape(mode: string, version: string, at = t0 + 5000, hosts = []): string {
  const m = cluster(hosts, version);
  startAll(m, ['a'], configText(mode), { version });
  return sh(m, 'a', 'curl -s http://127.0.0.1:10249/metrics', at).stdout;
}

const families = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('# TYPE kubeproxy_'))
    .map((l) => l.split(' ').slice(2).join(' '));

const series = (text: string, name: string): string[] =>
  text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

const common = [
  'kubeproxy_sync_proxy_rules_endpoint_changes_pending gauge',
  'kubeproxy_sync_proxy_rules_endpoint_changes_total counter',
  'kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds gauge',
  'kubeproxy_sync_proxy_rules_last_timestamp_seconds gauge',
  'kubeproxy_sync_proxy_rules_no_local_endpoints_total gauge',
  'kubeproxy_sync_proxy_rules_service_changes_pending gauge',
  'kubeproxy_sync_proxy_rules_service_changes_total counter',
];

describe('kube-proxy /metrics families', () => {
  it('v1.33 IPVS: no restore-failure series until a restore fails', () => {
    expect(families(scrape('ipvs', 'v1.33.4'))).toEqual([
      'kubeproxy_sync_proxy_rules_duration_seconds histogram',
      ...common,
    ]);
  });

  it('v1.33 nftables: full/partial histograms; the failure counters are absent at start', () => {
    const text = scrape('nftables', 'v1.33.4');
    expect(families(text)).toEqual([
      'kubeproxy_sync_full_proxy_rules_duration_seconds histogram',
      'kubeproxy_sync_partial_proxy_rules_duration_seconds histogram',
      'kubeproxy_sync_proxy_rules_duration_seconds histogram',
      ...common,
    ]);
    // The answer that decides an `absent()` alert: the CounterVec has no series yet.
    expect(text).not.toContain('nftables_sync_failures_total');
  });

  it('v1.33 iptables: the nfacct collectors, rule counts per table and family', () => {
    const text = scrape('iptables', 'v1.33.4');
    expect(families(text)).toEqual([
      'kubeproxy_iptables_ct_state_invalid_dropped_packets_total counter',
      'kubeproxy_iptables_localhost_nodeports_accepted_packets_total counter',
      'kubeproxy_sync_full_proxy_rules_duration_seconds histogram',
      'kubeproxy_sync_partial_proxy_rules_duration_seconds histogram',
      'kubeproxy_sync_proxy_rules_duration_seconds histogram',
      'kubeproxy_sync_proxy_rules_endpoint_changes_pending gauge',
      'kubeproxy_sync_proxy_rules_endpoint_changes_total counter',
      'kubeproxy_sync_proxy_rules_iptables_last gauge',
      'kubeproxy_sync_proxy_rules_iptables_total gauge',
      ...common.slice(2),
    ]);
    expect(series(text, 'kubeproxy_sync_proxy_rules_iptables_total')).toEqual([
      'kubeproxy_sync_proxy_rules_iptables_total{ip_family="IPv4",table="filter"} 6',
      'kubeproxy_sync_proxy_rules_iptables_total{ip_family="IPv4",table="nat"} 34',
      'kubeproxy_sync_proxy_rules_iptables_total{ip_family="IPv6",table="filter"} 4',
      'kubeproxy_sync_proxy_rules_iptables_total{ip_family="IPv6",table="nat"} 12',
    ]);
  });

  it('v1.31/v1.32: plain metrics, present at 0 from registration, no ip_family', () => {
    const nft = scrape('nftables', 'v1.32.3');
    expect(series(nft, 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total')).toEqual([
      'kubeproxy_sync_proxy_rules_nftables_sync_failures_total 0',
    ]);
    expect(series(nft, 'kubeproxy_sync_proxy_rules_nftables_cleanup_failures_total')).toEqual([
      'kubeproxy_sync_proxy_rules_nftables_cleanup_failures_total 0',
    ]);
    expect(nft).not.toContain('ip_family');
    const ipvs = scrape('ipvs', 'v1.31.2');
    expect(series(ipvs, 'kubeproxy_sync_proxy_rules_iptables_restore_failures_total')).toEqual([
      'kubeproxy_sync_proxy_rules_iptables_restore_failures_total 0',
    ]);
    // A registered plain histogram is exported before it observes anything.
    expect(series(ipvs, 'kubeproxy_network_programming_duration_seconds_count')).toEqual([
      'kubeproxy_network_programming_duration_seconds_count 0',
    ]);
    // Both proxiers observe into the one plain histogram.
    expect(series(ipvs, 'kubeproxy_sync_proxy_rules_duration_seconds_count')).toEqual([
      'kubeproxy_sync_proxy_rules_duration_seconds_count 2',
    ]);
  });

  it('the component-base families: help texts of the vendored client_golang', () => {
    const modern = scrape('ipvs', 'v1.33.4');
    expect(modern).toContain(
      '# HELP go_memstats_alloc_bytes Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes.\n# TYPE go_memstats_alloc_bytes gauge\n',
    );
    expect(modern).toContain('\ngo_info{version="go1.24.6"} 1\n');
    expect(modern).toContain(
      '\n# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds 1.764424923e+09\n',
    );
    expect(modern).toContain('\nprocess_virtual_memory_max_bytes 1.8446744073709552e+19\n');
    expect(modern).toContain('\nrest_client_exec_plugin_ttl_seconds +Inf\n');
    expect(modern).toContain(
      '\nrest_client_requests_total{code="200",host="10.96.0.1:443",method="GET"} 8\n',
    );
    const old = scrape('ipvs', 'v1.31.2');
    expect(old).toContain(
      '# HELP go_memstats_alloc_bytes Number of bytes allocated and still in use.\n',
    );
    expect(old).toContain('\ngo_memstats_lookups_total 0\n');
    expect(old).not.toContain('process_network_receive_bytes_total');
  });
});

describe('histograms', () => {
  it('sync durations use ExponentialBuckets(0.001, 2, 15)', () => {
    const text = scrape('ipvs', 'v1.33.4');
    const les = series(text, 'kubeproxy_sync_proxy_rules_duration_seconds_bucket')
      .filter((l) => l.includes('IPv4'))
      .map((l) => /le="([^"]+)"/.exec(l)?.[1]);
    expect(les).toEqual([
      '0.001',
      '0.002',
      '0.004',
      '0.008',
      '0.016',
      '0.032',
      '0.064',
      '0.128',
      '0.256',
      '0.512',
      '1.024',
      '2.048',
      '4.096',
      '8.192',
      '16.384',
      '+Inf',
    ]);
  });

  it('IPVS resyncs every syncPeriod at IPVS cost; nftables syncs on change, cheaper', () => {
    const ipvs = scrape('ipvs', 'v1.33.4', t0 + 95_000);
    const nft = scrape('nftables', 'v1.33.4', t0 + 95_000);
    const stat = (text: string, what: 'sum' | 'count'): number =>
      Number(series(text, `kubeproxy_sync_proxy_rules_duration_seconds_${what}`)[0]?.split(' ')[1]);
    expect(stat(ipvs, 'count')).toBe(4); // the start and three 30 s resyncs
    expect(stat(nft, 'count')).toBe(1); // the start only: maxInterval is an hour
    // 2 Service ports, 4 endpoints: IPVS 0.006 + 2×3e-5 + 4×5e-6, nftables 0.003 + 2×1e-5 + 4×4e-6.
    expect(stat(ipvs, 'sum') / stat(ipvs, 'count')).toBeCloseTo(0.00608, 9);
    expect(stat(nft, 'sum')).toBeCloseTo(0.003036, 9);
    expect(series(ipvs, 'kubeproxy_sync_proxy_rules_duration_seconds_bucket')[2]).toBe(
      'kubeproxy_sync_proxy_rules_duration_seconds_bucket{ip_family="IPv4",le="0.004"} 0',
    );
    expect(series(ipvs, 'kubeproxy_sync_proxy_rules_duration_seconds_bucket')[3]).toBe(
      'kubeproxy_sync_proxy_rules_duration_seconds_bucket{ip_family="IPv4",le="0.008"} 4',
    );
  });

  it('network programming: observed per slice change with a trigger time after the start', () => {
    const m = cluster();
    startAll(m, ['a'], configText('nftables'));
    const annotated = slice('web', [{ ip: '10.244.1.6', node: 'a' }]);
    annotated.metadata.annotations = {
      'endpoints.kubernetes.io/last-change-trigger-time': '2025-11-29T14:02:09Z',
    };
    m.resync([service('web', '10.96.10.10', 80)], [annotated], t0 + 7_400);
    // Resyncing the same slice again does not observe the same change twice.
    m.resync([service('web', '10.96.10.10', 80)], [annotated], t0 + 9_000);
    const text = sh(m, 'a', 'curl -s http://127.0.0.1:10249/metrics', t0 + 10_000).stdout;
    const lines = series(text, 'kubeproxy_network_programming_duration_seconds_bucket');
    expect(lines.map((l) => /le="([^"]+)"/.exec(l)?.[1]).slice(0, 5)).toEqual([
      '0',
      '0.25',
      '0.5',
      '1',
      '2',
    ]);
    expect(lines).toHaveLength(82); // 0, 0.25, 0.5, 1…59, 60…115 by 5, 120…300 by 30, +Inf
    expect(lines.at(-2)).toBe(
      'kubeproxy_network_programming_duration_seconds_bucket{ip_family="IPv4",le="300"} 1',
    );
    expect(lines[3]).toBe(
      'kubeproxy_network_programming_duration_seconds_bucket{ip_family="IPv4",le="1"} 0',
    );
    expect(lines[4]).toBe(
      'kubeproxy_network_programming_duration_seconds_bucket{ip_family="IPv4",le="2"} 1',
    );
    expect(series(text, 'kubeproxy_network_programming_duration_seconds_sum')).toEqual([
      'kubeproxy_network_programming_duration_seconds_sum{ip_family="IPv4"} 1.4',
    ]);
  });
});

describe('prometheus text format', () => {
  it('floats as strconv.FormatFloat(f, g, -1, 64)', () => {
    expect(
      [1.7644249e9, 262144, 1e6, 0.001, 1e-5, 0.0001, 16.384, Infinity, 0].map(goFloat),
    ).toEqual([
      '1.7644249e+09',
      '262144',
      '1e+06',
      '0.001',
      '1e-05',
      '0.0001',
      '16.384',
      '+Inf',
      '0',
    ]);
  });

  it('sorts families by name and series by label values, escapes help and values', () => {
    const p = new PromWriter();
    p.counter('b_total', 'two\nlines \\ ok', [
      { labels: { code: '503' }, value: 1 },
      { labels: { code: '200' }, value: 2 },
    ]);
    p.gauge('a', 'first', [{ labels: { v: 'say "hi"' }, value: 0.5 }]);
    p.gauge('empty', 'never set', []);
    expect(p.text()).toBe(
      [
        '# HELP a first',
        '# TYPE a gauge',
        'a{v="say \\"hi\\""} 0.5',
        '# HELP b_total two\\nlines \\\\ ok',
        '# TYPE b_total counter',
        'b_total{code="200"} 2',
        'b_total{code="503"} 1',
        '',
      ].join('\n'),
    );
  });
});
