// kube-proxy's /metrics (pkg/proxy/metrics): the common metrics, then what RegisterMetrics(mode)
// adds per mode — iptables: restore failures, rule counts, invalid-drop counter; ipvs: only
// iptables_restore_failures_total; nftables: nftables_sync/cleanup_failures_total. From v1.33
// (PR #129173) the per-family metrics carry `ip_family`, one series per family.

import type { ServiceCatalog } from '../dataplane/catalog.js';
import type { HostFacts } from '../host/host.js';
import { lastSuccessfulSync, syncFailures, type KubeProxyRuntime } from './kube-proxy.js';
import { goFloat, PromWriter, type Labels, type Sample } from './prom-text.js';
import { atLeast, formatVersion } from '../versions.js';

const buckets = Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i);

/** A deterministic sync cost: grows with the rules each backend rewrites. */
export function syncSeconds(mode: string, catalog: ServiceCatalog): number {
  const ports = catalog.ports.length;
  const eps = catalog.endpointsByAddress.size;
  if (mode === 'iptables') return 0.004 + ports * 2e-5 + eps * 1e-5;
  if (mode === 'ipvs') return 0.006 + ports * 3e-5 + eps * 5e-6;
  return 0.003 + ports * 1e-5 + eps * 4e-6;
}

export function successfulSyncs(rt: KubeProxyRuntime, now: number): number {
  const last = rt.lastSyncAt ?? rt.startedAt;
  return (
    rt.syncs +
    Math.round((lastSuccessfulSync(rt, now) - last) / ((rt.config?.syncPeriodSeconds ?? 30) * 1000))
  );
}

export function metricsText(
  rt: KubeProxyRuntime,
  catalog: ServiceCatalog,
  facts: HostFacts,
  now: number,
): string {
  const mode = rt.config?.mode ?? 'iptables';
  const familyLabels: Labels[] = atLeast(rt.version, 33)
    ? [{ ip_family: 'IPv4' }, { ip_family: 'IPv6' }]
    : [{}];
  const perFamily = (value: number, extra: Labels = {}): Sample[] =>
    familyLabels.map((l) => ({ labels: { ...l, ...extra }, value }));
  const syncs = successfulSyncs(rt, now) + syncFailures(rt, now);
  const seconds = syncSeconds(mode, catalog);
  const series = familyLabels.map((labels) => ({ labels, count: syncs, seconds }));
  const p = new PromWriter();
  p.plain(
    'kubernetes_build_info',
    "[ALPHA] A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
    'gauge',
    `kubernetes_build_info{build_date="2025-07-15T18:36:19Z",compiler="gc",git_commit="0f3c0c1e7a6d3c4b5a69b8a7f1f2e3d4c5b6a798",git_tree_state="clean",git_version="${formatVersion(rt.version)}",go_version="go1.24.4",major="${rt.version.major}",minor="${rt.version.minor}",platform="linux/amd64"} 1`,
  );
  const total = (codes: Record<string, number>): Sample[] =>
    Object.entries(codes).map(([code, value]) => ({ labels: { code }, value }));
  p.metric(
    'kubeproxy_proxy_healthz_total',
    'Cumulative proxy healthz HTTP status',
    'counter',
    total(rt.served.healthz),
  );
  p.metric(
    'kubeproxy_proxy_livez_total',
    'Cumulative proxy livez HTTP status',
    'counter',
    total(rt.served.livez),
  );
  if (mode === 'iptables') {
    p.metric(
      'kubeproxy_iptables_ct_state_invalid_dropped_packets_total',
      'packets dropped by iptables to work around conntrack problems',
      'counter',
      [{ labels: {}, value: facts.conntrack.invalidPerCpu.reduce((a, b) => a + b, 0) }],
    );
    p.histogram(
      'kubeproxy_sync_full_proxy_rules_duration_seconds',
      'SyncProxyRules latency in seconds for full resyncs',
      buckets,
      series.map((s) => ({ ...s, count: 1 })),
    );
    p.histogram(
      'kubeproxy_sync_partial_proxy_rules_duration_seconds',
      'SyncProxyRules latency in seconds for partial resyncs',
      buckets,
      series.map((s) => ({ ...s, count: Math.max(0, s.count - 1) })),
    );
  }
  p.histogram(
    'kubeproxy_sync_proxy_rules_duration_seconds',
    'SyncProxyRules latency in seconds',
    buckets,
    series,
  );
  p.metric(
    'kubeproxy_sync_proxy_rules_endpoint_changes_pending',
    'Pending proxy rules Endpoint changes',
    'gauge',
    [{ labels: {}, value: 0 }],
  );
  p.metric(
    'kubeproxy_sync_proxy_rules_endpoint_changes_total',
    'Cumulative proxy rules Endpoint changes',
    'counter',
    [{ labels: {}, value: catalog.endpointsByAddress.size }],
  );
  const ruleCounts = [
    ...perFamily(12, { table: 'filter' }),
    ...perFamily(catalog.ports.length * 5 + catalog.endpointsByAddress.size * 3 + 12, {
      table: 'nat',
    }),
  ];
  if (mode === 'iptables') {
    p.metric(
      'kubeproxy_sync_proxy_rules_iptables_last',
      'Number of iptables rules written by kube-proxy in last sync',
      'gauge',
      ruleCounts,
    );
    p.metric(
      'kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total',
      'Cumulative proxy iptables partial restore failures',
      'counter',
      perFamily(0),
    );
  }
  if (mode !== 'nftables')
    p.metric(
      'kubeproxy_sync_proxy_rules_iptables_restore_failures_total',
      'Cumulative proxy iptables restore failures',
      'counter',
      perFamily(0),
    );
  if (mode === 'iptables')
    p.metric(
      'kubeproxy_sync_proxy_rules_iptables_total',
      'Total number of iptables rules owned by kube-proxy',
      'gauge',
      ruleCounts,
    );
  p.metric(
    'kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds',
    'The last time a sync of proxy rules was queued',
    'gauge',
    perFamily((rt.lastSyncAt ?? rt.startedAt) / 1000),
  );
  p.metric(
    'kubeproxy_sync_proxy_rules_last_timestamp_seconds',
    'The last time proxy rules were successfully synced',
    'gauge',
    perFamily(lastSuccessfulSync(rt, now) / 1000),
  );
  if (mode === 'nftables') {
    p.metric(
      'kubeproxy_sync_proxy_rules_nftables_cleanup_failures_total',
      'Cumulative proxy nftables cleanup failures',
      'counter',
      perFamily(0),
    );
    p.metric(
      'kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
      'Cumulative proxy nftables sync failures',
      'counter',
      perFamily(syncFailures(rt, now)),
    );
  }
  p.metric(
    'kubeproxy_sync_proxy_rules_no_local_endpoints_total',
    'Number of services with a Local traffic policy and no endpoints',
    'gauge',
    [
      ...perFamily(0, { traffic_policy: 'external' }),
      ...perFamily(0, { traffic_policy: 'internal' }),
    ],
  );
  p.metric(
    'kubeproxy_sync_proxy_rules_service_changes_pending',
    'Pending proxy rules Service changes',
    'gauge',
    [{ labels: {}, value: 0 }],
  );
  p.metric(
    'kubeproxy_sync_proxy_rules_service_changes_total',
    'Cumulative proxy rules Service changes',
    'counter',
    [{ labels: {}, value: catalog.ports.length }],
  );
  p.plain(
    'process_start_time_seconds',
    'Start time of the process since unix epoch in seconds.',
    'gauge',
    `process_start_time_seconds ${goFloat(rt.startedAt / 1000)}`,
  );
  return p.text();
}
