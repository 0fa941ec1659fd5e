// The kubeproxy_* families only some modes register (pkg/proxy/metrics/metrics.go
// RegisterMetrics): iptables mode's nfacct collectors and rule counts, and from v1.33 the
// conntrack reconciler's families in every Linux mode.

import type { ServiceCatalog } from '../dataplane/catalog.js';
import type { HostFacts } from '../host/host.js';
import type { IPFamily } from '../host/ip.js';
import type { PromWriter } from './prom-text.js';
import { alpha, observedAs, type Sample } from './prom-text.js';
import { familyLoad } from './sync-stats.js';
import { syncBuckets } from './metrics-buckets.js';

const families: readonly IPFamily[] = ['IPv4', 'IPv6'];

export function writeIptablesMode(
  p: PromWriter,
  catalog: ServiceCatalog,
  facts: HostFacts,
  perFamily: (value: (f: IPFamily) => number) => Sample[],
  failureCounter: (name: string, help: string, value: number) => void,
): void {
  // The two nfacct collectors (custom, unlabelled) read kernel counters the rules update.
  p.counter(
    'kubeproxy_iptables_ct_state_invalid_dropped_packets_total',
    alpha('packets dropped by iptables to work around conntrack problems'),
    [{ labels: {}, value: facts.conntrack.invalidPerCpu.reduce((a, b) => a + b, 0) }],
  );
  p.counter(
    'kubeproxy_iptables_localhost_nodeports_accepted_packets_total',
    alpha('Number of packets accepted on nodeports of loopback interface'),
    [{ labels: {}, value: 0 }],
  );
  failureCounter(
    'kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total',
    'Cumulative proxy iptables partial restore failures',
    0,
  );
  const rules = (f: IPFamily, table: 'filter' | 'nat'): number => {
    const load = familyLoad(catalog, f);
    return table === 'filter' ? 4 + load.ports : 12 + load.ports * 5 + load.endpoints * 3;
  };
  for (const [name, help] of [
    [
      'kubeproxy_sync_proxy_rules_iptables_total',
      'Total number of iptables rules owned by kube-proxy',
    ],
    [
      'kubeproxy_sync_proxy_rules_iptables_last',
      'Number of iptables rules written by kube-proxy in last sync',
    ],
  ] as const)
    p.gauge(
      name,
      alpha(help),
      (['filter', 'nat'] as const).flatMap((table) =>
        perFamily((f) => rules(f, table)).map((s) => ({ ...s, labels: { ...s.labels, table } })),
      ),
    );
}

/**
 * conntrack.CleanStaleEntries runs when a sync needs it (UDP endpoints appeared or went): at the
 * first sync for each family with a UDP Service that has endpoints, observing one reconcile and
 * adding the flows it deleted (none in the twin) — Add(0) still creates the series.
 */
export function writeConntrackReconciler(p: PromWriter, catalog: ServiceCatalog): void {
  const udp = families.filter((f) =>
    catalog.ports.some((sp) => sp.family === f && sp.protocol === 'UDP' && sp.endpoints.length > 0),
  );
  p.histogram(
    'kubeproxy_conntrack_reconciler_sync_duration_seconds',
    alpha('ReconcileConntrackFlowsLatency latency in seconds'),
    syncBuckets,
    udp.map((f) => observedAs({ ip_family: f }, syncBuckets, 1, 0.0004)),
  );
  p.counter(
    'kubeproxy_conntrack_reconciler_deleted_entries_total',
    alpha('Cumulative conntrack flows deleted by conntrack reconciler'),
    udp.map((f) => ({ labels: { ip_family: f }, value: 0 })),
  );
}
