/**
 * nftables mode counts failed syncs in kubeproxy_sync_proxy_rules_nftables_sync_failures_total
 * (facts §7) and the count must not grow between two reads. From v1.33 the counter carries an
 * `ip_family` label and has no series until its first failure (pkg/proxy/metrics/metrics.go
 * registers the vector; nothing calls WithLabelValues before a failure), so an absent counter
 * means "no failure yet", not "not the nftables proxier": that is for /proxyMode and the log.
 */
import { labelText, samplesNamed, type Metrics } from '../core/parse/prometheus.js';
import type { ProbeRead } from '../probes/read.js';
import { evidence, metricSeries, readable, sample } from './evidence.js';
import type { NftablesVerifyInput, Verification } from './types.js';

type Input = Pick<NftablesVerifyInput, 'node' | 'step' | 'now' | 'metrics'>;

export const SYNC_FAILURES = 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total';
const ID = 'nftables-sync-failures';

function series(metrics: Metrics): Map<string, number> {
  return new Map(samplesNamed(metrics, SYNC_FAILURES).map((s) => [labelText(s.labels), s.value]));
}

const seconds = (a: ProbeRead<unknown>, b: ProbeRead<unknown>): number =>
  Math.round((Date.parse(b.at) - Date.parse(a.at)) / 1000);

export const syncFailuresVerification: Verification<Input> = {
  id: ID,
  title: 'nftables sync failures not increasing',
  verify(input) {
    const first = readable(input, ID, input.metrics.first, 'kube-proxy’s /metrics (first read)');
    if (!first.ok) return [first.evidence];
    const second = readable(input, ID, input.metrics.second, 'kube-proxy’s /metrics (second read)');
    if (!second.ok) return [second.evidence];
    const say = (ok: boolean, verdict: string) => [
      evidence(input, ID, second.read, ok, verdict, metricSeries(SYNC_FAILURES)),
    ];
    const before = series(first.value);
    const after = series(second.value);
    if (after.size === 0 && before.size === 0)
      return say(
        true,
        `${SYNC_FAILURES} has no series in either read: no nftables sync failed since kube-proxy started (from v1.33 the labelled counter appears with its first failure)`,
      );
    const grew = [...after].filter(([labels, v]) => v > (before.get(labels) ?? 0));
    const dropped = [...after].filter(([labels, v]) => v < (before.get(labels) ?? 0));
    const text = (m: Map<string, number>, [labels]: [string, number]) =>
      `${SYNC_FAILURES}${labels} ${before.get(labels) ?? 0} → ${m.get(labels) ?? 0}`;
    const gap = seconds(first.read, second.read);
    if (grew.length > 0)
      return say(
        false,
        `expected no new nftables sync failures; ${sample(grew.map((e) => text(after, e)))} within ${gap} s`,
      );
    if (dropped.length > 0)
      return say(
        false,
        `expected ${SYNC_FAILURES} to hold steady; it went down (${sample(dropped.map((e) => text(after, e)))}): kube-proxy restarted between the reads`,
      );
    const values = [...after].map(([labels, v]) => `${labels || 'total'} ${v}`);
    return say(true, `${SYNC_FAILURES} present and unchanged over ${gap} s (${values.join(', ')})`);
  },
};
