// The kubeproxy_* families of /metrics, as pkg/proxy/metrics/metrics.go RegisterMetrics(mode)
// registers them per release:
// - v1.31/v1.32: plain Counters/Gauges/Histograms (series exist, at 0, from registration; both
//   proxiers of the dual-stack MetaProxier write the same series), the *Vec ones keyed by
//   `code`, `table` or `traffic_policy`. nftables adds the full/partial sync histograms (#126013).
// - v1.33+ (#129173): every per-proxier family is a *Vec with `ip_family`. A Vec has no series
//   until code calls WithLabelValues: RegisterMetrics only registers and NewProxier initialises
//   nothing (pkg/proxy/ipvs/proxier.go, pkg/proxy/nftables/proxier.go), so
//   `kubeproxy_sync_proxy_rules_nftables_sync_failures_total` (and IPVS's
//   `..._iptables_restore_failures_total`) is absent until the first failure, and an `absent()`
//   alert on it fires on every healthy node. v1.33 also adds the conntrack reconciler families.

import type { ServiceCatalog } from '../dataplane/catalog.js';
import { portPolicy } from '../dataplane/service-policy.js';
import type { HostFacts } from '../host/host.js';
import type { IPFamily } from '../host/ip.js';
import { nanos } from './healthz.js';
import type { KubeProxyRuntime } from './kube-proxy.js';
import { programmingBuckets } from './programming.js';
import type { PromWriter } from './prom-text.js';
import { alpha, observedAs, type HistogramSeries, type Labels, type Sample } from './prom-text.js';
import { familyLoad, syncCounts, syncSeconds } from './sync-stats.js';
import { syncBuckets } from './metrics-buckets.js';
import { writeConntrackReconciler, writeIptablesMode } from './metrics-modes.js';

export { syncBuckets } from './metrics-buckets.js';
import { atLeast } from '../versions.js';

const families: readonly IPFamily[] = ['IPv4', 'IPv6'];

/** Adds two histogram series of the same buckets (both proxiers writing one plain histogram). */
function merge(labels: Labels, series: readonly HistogramSeries[]): HistogramSeries {
  const counts = (series[0]?.counts ?? []).map((_, i) =>
    series.reduce((n, s) => n + (s.counts[i] ?? 0), 0),
  );
  return {
    labels,
    counts,
    overflow: series.reduce((n, s) => n + s.overflow, 0),
    sum: series.reduce((n, s) => n + s.sum, 0),
  };
}

/** Services with a Local policy and no local endpoint, per traffic policy (syncProxyRules). */
function noLocalEndpoints(catalog: ServiceCatalog, node: string, family: IPFamily): Sample[] {
  const internal = new Set<string>();
  const external = new Set<string>();
  for (const sp of catalog.ports) {
    if (sp.family !== family) continue;
    const pol = portPolicy(sp, node);
    const key = `${sp.namespace}/${sp.name}`;
    if (sp.internalPolicyLocal && pol.hasEndpoints && pol.localEndpoints.length === 0)
      internal.add(key);
    if (sp.externalPolicyLocal && pol.hasEndpoints && pol.localEndpoints.length === 0)
      external.add(key);
  }
  return [
    { labels: { traffic_policy: 'external' }, value: external.size },
    { labels: { traffic_policy: 'internal' }, value: internal.size },
  ];
}

export function writeProxyMetrics(
  p: PromWriter,
  rt: KubeProxyRuntime,
  catalog: ServiceCatalog,
  facts: HostFacts,
  now: number,
): void {
  const mode = rt.config?.mode ?? 'iptables';
  const labelled = atLeast(rt.version, 33);
  const c = syncCounts(rt, now);
  const fam = (f: IPFamily): Labels => (labelled ? { ip_family: f } : {});
  /** One value per family (Vec), or the last proxier's write to the shared plain metric. */
  const perFamily = (value: (f: IPFamily) => number): Sample[] =>
    labelled
      ? families.map((f) => ({ labels: fam(f), value: value(f) }))
      : [{ labels: {}, value: value('IPv6') }];
  const histogram = (name: string, help: string, series: (f: IPFamily) => HistogramSeries) => {
    const each = families.map((f) => series(f));
    p.histogram(name, alpha(help), syncBuckets, labelled ? each : [merge({}, each)]);
  };
  const syncs = (f: IPFamily, kind: 'all' | 'full' | 'partial'): HistogramSeries => {
    const load = familyLoad(catalog, f);
    if (mode === 'ipvs')
      return observedAs(fam(f), syncBuckets, c.successes, syncSeconds(mode, load, true));
    const full = observedAs(fam(f), syncBuckets, c.full, syncSeconds(mode, load, true));
    const partial = observedAs(
      fam(f),
      syncBuckets,
      c.successes - c.full,
      syncSeconds(mode, load, false),
    );
    return kind === 'full' ? full : kind === 'partial' ? partial : merge(fam(f), [full, partial]);
  };
  /** A plain counter is there at 0 before v1.33; a Vec only once it has been incremented. */
  const failureCounter = (name: string, help: string, value: number): void => {
    if (labelled) p.counter(name, alpha(help), value > 0 ? perFamily(() => value) : []);
    else p.counter(name, alpha(help), [{ labels: {}, value: value * families.length }]);
  };

  histogram(
    'kubeproxy_sync_proxy_rules_duration_seconds',
    'SyncProxyRules latency in seconds',
    (f) => syncs(f, 'all'),
  );
  if (mode !== 'ipvs') {
    histogram(
      'kubeproxy_sync_full_proxy_rules_duration_seconds',
      'SyncProxyRules latency in seconds for full resyncs',
      (f) => syncs(f, 'full'),
    );
    histogram(
      'kubeproxy_sync_partial_proxy_rules_duration_seconds',
      'SyncProxyRules latency in seconds for partial resyncs',
      (f) => syncs(f, 'partial'),
    );
  }
  const programming = families.map((f) => {
    const s = rt.programming.byFamily[f];
    return {
      labels: fam(f),
      counts: s?.counts ?? programmingBuckets.map(() => 0),
      overflow: s?.overflow ?? 0,
      sum: s?.sum ?? 0,
    };
  });
  p.histogram(
    'kubeproxy_network_programming_duration_seconds',
    alpha('In Cluster Network Programming Latency in seconds'),
    programmingBuckets,
    labelled
      ? programming.filter((_, i) => rt.programming.byFamily[families[i] ?? 'IPv4'] !== undefined)
      : [merge({}, programming)],
  );
  p.gauge(
    'kubeproxy_sync_proxy_rules_last_timestamp_seconds',
    alpha('The last time proxy rules were successfully synced'),
    perFamily(() => Number(nanos(c.lastSuccess)) / 1e9),
  );
  p.gauge(
    'kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds',
    alpha('The last time a sync of proxy rules was queued'),
    perFamily(() => Number(nanos(c.lastQueued)) / 1e9),
  );
  const one = (value: number): Sample[] => [{ labels: {}, value }];
  const slices = new Set(catalog.ports.map((sp) => `${sp.family}/${sp.namespace}/${sp.name}`));
  p.gauge(
    'kubeproxy_sync_proxy_rules_endpoint_changes_pending',
    alpha('Pending proxy rules Endpoint changes'),
    one(0),
  );
  p.counter(
    'kubeproxy_sync_proxy_rules_endpoint_changes_total',
    alpha('Cumulative proxy rules Endpoint changes'),
    one(slices.size + rt.syncs - 1),
  );
  p.gauge(
    'kubeproxy_sync_proxy_rules_service_changes_pending',
    alpha('Pending proxy rules Service changes'),
    one(0),
  );
  p.counter(
    'kubeproxy_sync_proxy_rules_service_changes_total',
    alpha('Cumulative proxy rules Service changes'),
    one(
      families.length *
        (new Set(catalog.ports.map((sp) => `${sp.namespace}/${sp.name}`)).size + rt.syncs - 1),
    ),
  );
  const codes = (counts: Record<string, number>): Sample[] =>
    Object.entries(counts).map(([code, value]) => ({ labels: { code }, value }));
  p.counter(
    'kubeproxy_proxy_healthz_total',
    alpha('Cumulative proxy healthz HTTP status'),
    codes(rt.served.healthz),
  );
  p.counter(
    'kubeproxy_proxy_livez_total',
    alpha('Cumulative proxy livez HTTP status'),
    codes(rt.served.livez),
  );
  p.gauge(
    'kubeproxy_sync_proxy_rules_no_local_endpoints_total',
    alpha('Number of services with a Local traffic policy and no endpoints'),
    labelled
      ? families.flatMap((f) =>
          noLocalEndpoints(catalog, facts.nodeName, f).map((s) => ({
            ...s,
            labels: { ...s.labels, ip_family: f },
          })),
        )
      : noLocalEndpoints(catalog, facts.nodeName, 'IPv6'),
  );
  if (mode === 'iptables') writeIptablesMode(p, catalog, facts, perFamily, failureCounter);
  if (mode === 'iptables' || mode === 'ipvs')
    failureCounter(
      'kubeproxy_sync_proxy_rules_iptables_restore_failures_total',
      'Cumulative proxy iptables restore failures',
      0,
    );
  if (mode === 'nftables') {
    failureCounter(
      'kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
      'Cumulative proxy nftables sync failures',
      c.failures,
    );
    failureCounter(
      'kubeproxy_sync_proxy_rules_nftables_cleanup_failures_total',
      'Cumulative proxy nftables cleanup failures',
      0,
    );
  }
  if (labelled) writeConntrackReconciler(p, catalog);
}
