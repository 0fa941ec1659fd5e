// kube-proxy's /healthz, /livez and /metrics as the product reads them: `kubectl exec` into a
// host-network probe pod on the node, running curl against 127.0.0.1:10256 and :10249. Three
// twins on manual clocks: kubeadm-ipvs (v1.33, IPVS), nftables-done (v1.34, nftables) and traps
// (v1.32, IPVS and iptables), so the simulated "now" is known to the millisecond.
//
// Sources:
// - pkg/proxy/healthcheck/proxy_health.go (v1.33+, #129271): the handler json.Marshals a
//   ProxyHealth {lastUpdated, currentTime, nodeEligible (healthz only), healthy, status}; when
//   healthy, lastUpdated is set to clock.Now() again after Health(); status[family].lastUpdated is
//   that proxier's last Updated(); unhealthy once an update has been queued longer than
//   healthTimeout (2 × syncPeriod, cmd/kube-proxy/app/server.go). Before v1.33 the body is
//   `{"lastUpdated": %q,"currentTime": %q, "nodeEligible": %v}` of time.Time Strings.
// - pkg/proxy/metrics/metrics.go RegisterMetrics(mode): every mode registers the sync duration,
//   last (queued) timestamp, endpoint/service changes, healthz/livez totals, network programming
//   and no-local-endpoints families; iptables adds the full/partial histograms, restore failures,
//   rule counts and the nfacct collectors; IPVS adds iptables restore failures; nftables the
//   full/partial histograms and the sync and cleanup failures. From v1.33 (#129173) the
//   per-proxier families are *Vecs with ip_family, and a Vec has no series until WithLabelValues
//   is called; before, plain Counters and Histograms show 0 from registration.
// - pkg/proxy/endpointschangetracker.go: a trigger time is observed only when it is after the
//   tracker's start (trackerStartTime), once per change.
// - component-base/metrics/legacyregistry: the Go and process collectors; client-go's
//   rest_client_* families (k8s.io/component-base/metrics/prometheus/restclient).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock, Twin } from '../../../src/index.js';
import { createManualClock, startTwin } from '../../../src/index.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlOk, kubectlWith } from '../../../src/testing/kubectl.js';

interface Rig {
  twin: Twin;
  clock: ManualClock;
  bootMs: number;
  kubectl: Kubectl;
  ok: (...args: string[]) => Promise<string>;
}

let dir: string;
const rigs: Rig[] = [];

async function rig(scenario: string, probeNodes: string[]): Promise<Rig> {
  const clock = createManualClock();
  const bootMs = clock.now();
  const sub = join(dir, scenario);
  await mkdir(sub);
  const twin = await startTwin({ scenario, clock });
  await twin.writeKubeconfig(join(sub, 'kubeconfig'));
  const kubectl = kubectlWith(join(sub, 'kubeconfig'), sub, { timeoutMs: 20_000 });
  const r: Rig = { twin, clock, bootMs, kubectl, ok: kubectlOk(kubectl) };
  rigs.push(r);
  // The product's probe: host network, curl in its image; no capabilities are needed for HTTP.
  for (const node of probeNodes) {
    const path = join(sub, `probe-${node}.json`);
    await writeFile(
      path,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `probe-${node}`, namespace: 'default' },
        spec: {
          nodeName: node,
          hostNetwork: true,
          containers: [
            {
              name: 'probe',
              image: 'ghcr.io/proxy-migrate/probe:0.1.0',
              command: ['sleep', '3600'],
            },
          ],
        },
      }),
    );
    await r.ok('create', '-f', path);
  }
  clock.advance(3000);
  for (const node of probeNodes)
    expect(await r.ok('get', 'pod', `probe-${node}`, '-o', 'jsonpath={.status.phase}')).toBe(
      'Running',
    );
  return r;
}

async function curl(r: Rig, node: string, url: string): Promise<{ code: string; body: string }> {
  const res = await r.kubectl(
    'exec',
    `probe-${node}`,
    '--',
    'curl',
    '-s',
    '-w',
    '\n%{http_code}',
    url,
  );
  expect(res.code).toBe(0);
  const cut = res.stdout.lastIndexOf('\n');
  return { body: res.stdout.slice(0, cut), code: res.stdout.slice(cut + 1) };
}

const metrics = async (r: Rig, node: string): Promise<string> => {
  const m = await curl(r, node, 'http://127.0.0.1:10249/metrics');
  expect(m.code).toBe('200');
  return m.body;
};

/** Metric family names, as `# TYPE` lines declare them. */
const familiesOf = (text: string): string[] =>
  [...text.matchAll(/^# TYPE (\S+) \w+$/gm)].map((m) => m[1] ?? '');

const kubeproxyFamilies = (text: string): string[] =>
  familiesOf(text).filter((f) => f.startsWith('kubeproxy_'));

/** One sample's value: `name{labels} value`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

interface Health {
  lastUpdated: string;
  currentTime: string;
  nodeEligible?: boolean;
  healthy: boolean;
  status: Record<string, { lastUpdated: string; healthy: boolean }>;
}

/** RFC3339Nano as milliseconds since the epoch, and its nanoseconds within the millisecond. */
function parseNano(s: string): { ms: number; subNs: number } {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(s);
  if (!m) throw new Error(`not RFC3339Nano: ${s}`);
  const frac = (m[2] ?? '').padEnd(9, '0');
  return {
    ms: Date.parse(`${m[1]}Z`) + Number(frac.slice(0, 3)),
    subNs: Number(frac.slice(3)),
  };
}

const standardFamilies = [
  'go_gc_duration_seconds',
  'go_goroutines',
  'go_info',
  'go_memstats_alloc_bytes',
  'go_memstats_heap_inuse_bytes',
  'go_threads',
  'kubernetes_build_info',
  'process_cpu_seconds_total',
  'process_max_fds',
  'process_open_fds',
  'process_resident_memory_bytes',
  'process_start_time_seconds',
  'process_virtual_memory_bytes',
  'rest_client_request_duration_seconds',
  'rest_client_requests_total',
  'rest_client_response_size_bytes',
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twin-kube-proxy-wire-'));
});

afterAll(async () => {
  for (const r of rigs) await r.twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('v1.33 IPVS (kubeadm-ipvs)', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig('kubeadm-ipvs', ['blue-1']);
  });

  it('registers the IPVS families, and a labelled family has no series before its first write', async () => {
    const text = await metrics(r, 'blue-1');
    for (const f of standardFamilies) expect(familiesOf(text)).toContain(f);
    expect(text).toMatch(
      /\nrest_client_requests_total\{code="200",host="[^"]+",method="GET"\} \d+\n/,
    );
    // Nothing has scraped /healthz or /livez yet, no slice has changed since kube-proxy started,
    // and no restore failed: those Vecs have no series, so no family at all.
    expect(kubeproxyFamilies(text)).toEqual([
      'kubeproxy_conntrack_reconciler_deleted_entries_total',
      'kubeproxy_conntrack_reconciler_sync_duration_seconds',
      'kubeproxy_sync_proxy_rules_duration_seconds',
      'kubeproxy_sync_proxy_rules_endpoint_changes_pending',
      'kubeproxy_sync_proxy_rules_endpoint_changes_total',
      'kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds',
      'kubeproxy_sync_proxy_rules_last_timestamp_seconds',
      'kubeproxy_sync_proxy_rules_no_local_endpoints_total',
      'kubeproxy_sync_proxy_rules_service_changes_pending',
      'kubeproxy_sync_proxy_rules_service_changes_total',
    ]);
    expect(text).toContain(
      '\nkubeproxy_sync_proxy_rules_duration_seconds_count{ip_family="IPv4"} ',
    );
    expect(text).toContain(
      '\nkubeproxy_sync_proxy_rules_duration_seconds_count{ip_family="IPv6"} ',
    );

    // The first /healthz and /livez create their code="200" series.
    expect((await curl(r, 'blue-1', 'http://127.0.0.1:10256/healthz')).code).toBe('200');
    const after = await metrics(r, 'blue-1');
    expect(sample(after, 'kubeproxy_proxy_healthz_total{code="200"}')).toBe(1);
    expect(after).not.toContain('kubeproxy_proxy_livez_total');
    expect((await curl(r, 'blue-1', 'http://127.0.0.1:10256/livez')).code).toBe('200');
    expect(sample(await metrics(r, 'blue-1'), 'kubeproxy_proxy_livez_total{code="200"}')).toBe(1);
  });

  it('answers /healthz with lastUpdated = now and each family’s last sync in status', async () => {
    r.clock.advance(20_000);
    const now = r.clock.now();
    const res = await curl(r, 'blue-1', 'http://127.0.0.1:10256/healthz');
    expect(res.code).toBe('200');
    const health = JSON.parse(res.body) as Health;
    expect(Object.keys(health)).toEqual([
      'lastUpdated',
      'currentTime',
      'nodeEligible',
      'healthy',
      'status',
    ]);
    expect(health).toMatchObject({ nodeEligible: true, healthy: true });
    const current = parseNano(health.currentTime);
    const last = parseNano(health.lastUpdated);
    expect(current.ms).toBe(now);
    // The handler's second clock.Now(): the same instant or a little after currentTime.
    expect(last.ms * 1e6 + last.subNs).toBeGreaterThanOrEqual(current.ms * 1e6 + current.subNs);
    expect(last.ms - current.ms).toBeLessThanOrEqual(1);

    // Per family: the time of that proxier's last successful sync, which /metrics also reports.
    expect(Object.keys(health.status).sort()).toEqual(['IPv4', 'IPv6']);
    const text = await metrics(r, 'blue-1');
    for (const family of ['IPv4', 'IPv6']) {
      const s = health.status[family];
      expect(s?.healthy).toBe(true);
      const synced = parseNano(s?.lastUpdated ?? '').ms;
      expect(now - synced).toBeGreaterThanOrEqual(20_000);
      const gauge = sample(
        text,
        `kubeproxy_sync_proxy_rules_last_timestamp_seconds{ip_family="${family}"}`,
      );
      expect(Math.abs((gauge ?? 0) * 1000 - synced)).toBeLessThan(1);
    }

    // /livez: the same body without nodeEligible.
    const live = JSON.parse(
      (await curl(r, 'blue-1', 'http://127.0.0.1:10256/livez')).body,
    ) as Health;
    expect(Object.keys(live)).toEqual(['lastUpdated', 'currentTime', 'healthy', 'status']);
  });

  it('observes network programming latency per family once a slice changes after the start', async () => {
    // The trigger time the EndpointSlice controller writes (RFC3339, seconds), 3 s ago.
    const trigger = Math.floor(r.clock.now() / 1000) * 1000 - 3000;
    const slice = JSON.parse(
      await r.ok('get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'json'),
    ) as { items: { metadata: { name: string } }[] };
    const name = slice.items[0]?.metadata.name ?? '';
    await r.ok(
      'annotate',
      'endpointslice',
      name,
      '--overwrite',
      `endpoints.kubernetes.io/last-change-trigger-time=${new Date(trigger).toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    );
    r.clock.advance(1000);
    const text = await metrics(r, 'blue-1');
    expect(kubeproxyFamilies(text)).toContain('kubeproxy_network_programming_duration_seconds');
    expect(
      sample(text, 'kubeproxy_network_programming_duration_seconds_count{ip_family="IPv4"}'),
    ).toBe(1);
    const sum = sample(
      text,
      'kubeproxy_network_programming_duration_seconds_sum{ip_family="IPv4"}',
    );
    expect(sum).toBeGreaterThanOrEqual(3);
    expect(sum).toBeLessThanOrEqual(5);
    // An IPv4 slice: the IPv6 proxier observed nothing, so it has no series.
    expect(text).not.toContain(
      'kubeproxy_network_programming_duration_seconds_count{ip_family="IPv6"}',
    );
    expect(
      sample(
        text,
        'kubeproxy_network_programming_duration_seconds_bucket{ip_family="IPv4",le="0.25"}',
      ),
    ).toBe(0);
  });
});

describe('v1.34 nftables (nftables-done)', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig('nftables-done', ['general-1']);
  });

  it('registers the nftables families; the failure counters appear at the first failure', async () => {
    const text = await metrics(r, 'general-1');
    for (const f of standardFamilies) expect(familiesOf(text)).toContain(f);
    const families = kubeproxyFamilies(text);
    expect(families).toContain('kubeproxy_sync_full_proxy_rules_duration_seconds');
    expect(families).toContain('kubeproxy_sync_partial_proxy_rules_duration_seconds');
    expect(families).not.toContain('kubeproxy_sync_proxy_rules_iptables_restore_failures_total');
    expect(families).not.toContain('kubeproxy_sync_proxy_rules_iptables_total');
    expect(families).not.toContain('kubeproxy_sync_proxy_rules_nftables_sync_failures_total');
    expect(families).not.toContain('kubeproxy_sync_proxy_rules_nftables_cleanup_failures_total');

    const put = await fetch(`${r.twin.url}/twin/hosts/general-1/faults`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(['nftables-sync-failures']),
    });
    expect(put.status).toBe(200);
    const lastGood = sample(
      text,
      'kubeproxy_sync_proxy_rules_last_timestamp_seconds{ip_family="IPv4"}',
    );
    // A Service change queues a sync, which now fails.
    await r.ok('label', 'service', '-n', 'kube-system', 'kube-dns', 'rehearsal=1');
    r.clock.advance(1000);
    const failed = await metrics(r, 'general-1');
    expect(
      sample(failed, 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total{ip_family="IPv4"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(failed).not.toContain('kubeproxy_sync_proxy_rules_nftables_cleanup_failures_total');
    expect(
      sample(failed, 'kubeproxy_sync_proxy_rules_last_timestamp_seconds{ip_family="IPv4"}'),
    ).toBe(lastGood);

    // Unhealthy once the queued update is older than healthTimeout (2 × syncPeriod 30 s):
    // lastUpdated is then the last successful update, not now.
    r.clock.advance(61_000);
    const res = await curl(r, 'general-1', 'http://127.0.0.1:10256/healthz');
    expect(res.code).toBe('503');
    const health = JSON.parse(res.body) as Health;
    expect(health.healthy).toBe(false);
    expect(health.nodeEligible).toBe(true);
    const last = parseNano(health.lastUpdated).ms;
    expect(Math.abs(last - (lastGood ?? 0) * 1000)).toBeLessThan(1);
    expect(parseNano(health.currentTime).ms).toBe(r.clock.now());
    expect(health.status['IPv4']).toEqual({ lastUpdated: health.lastUpdated, healthy: false });
    expect((await curl(r, 'general-1', 'http://127.0.0.1:10256/livez')).code).toBe('503');
    expect(sample(await metrics(r, 'general-1'), 'kubeproxy_proxy_healthz_total{code="503"}')).toBe(
      1,
    );
  });
});

describe('v1.32 (traps): plain metrics and the old /healthz body', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig('traps', ['general-1', 'storage-1']);
  });

  it('shows unlabelled counters and histograms at 0 before any write', async () => {
    const ipvs = await metrics(r, 'general-1');
    expect(ipvs).toContain('\nkubeproxy_sync_proxy_rules_iptables_restore_failures_total 0\n');
    expect(ipvs).toContain('\nkubeproxy_network_programming_duration_seconds_count 0\n');
    expect(ipvs).not.toContain('ip_family=');
    expect(ipvs).not.toContain('kubeproxy_conntrack_reconciler');
    const iptables = await metrics(r, 'storage-1');
    expect(iptables).toContain(
      '\nkubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total 0\n',
    );
    expect(iptables).toMatch(/\nkubeproxy_sync_proxy_rules_iptables_total\{table="nat"\} \d+\n/);
    expect(kubeproxyFamilies(iptables)).toContain(
      'kubeproxy_iptables_ct_state_invalid_dropped_packets_total',
    );
  });

  it('prints /healthz as v1.32 does, with Go time Strings', async () => {
    const res = await curl(r, 'general-1', 'http://127.0.0.1:10256/healthz');
    expect(res.code).toBe('200');
    expect(res.body).toMatch(
      /^\{"lastUpdated": "(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC m=\+\d+\.\d{9})","currentTime": "\1", "nodeEligible": true\}$/,
    );
  });
});
