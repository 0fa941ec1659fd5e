/**
 * The sync-duration p99 before (IPVS) and after (nftables), from
 * kubeproxy_sync_proxy_rules_duration_seconds (playbook 000 trap 10: record the IPVS baseline and
 * compare the canary under the same Service count; nftables has a reported cliff at 1000+ Services,
 * kubernetes/kubernetes#135639). Informational: it fails only when the new value cannot be read.
 * Both are cumulative since each process started, as `histogram_quantile` over the raw buckets.
 */
import { histogramBuckets, histogramCount, histogramQuantile } from '../core/parse/histogram.js';
import type { Metrics } from '../core/parse/prometheus.js';
import { valueOf } from '../probes/read.js';
import { evidence, metricSeries, plural, readable } from './evidence.js';
import type { NftablesVerifyInput, Verification } from './types.js';

type Input = Pick<NftablesVerifyInput, 'node' | 'step' | 'now' | 'metrics'>;

export const SYNC_DURATION = 'kubeproxy_sync_proxy_rules_duration_seconds';
const ID = 'sync-p99';

function p99(metrics: Metrics): { p99: number; count: number } | undefined {
  const buckets = histogramBuckets(metrics, SYNC_DURATION);
  if (buckets === undefined) return undefined;
  return {
    p99: histogramQuantile(0.99, buckets),
    count: histogramCount(metrics, SYNC_DURATION) ?? 0,
  };
}

const shown = (v: { p99: number; count: number }): string =>
  Number.isNaN(v.p99)
    ? 'no syncs observed yet'
    : `${Number(v.p99.toPrecision(3))} s over ${plural(v.count, 'sync')}`;

export const syncP99Verification: Verification<Input> = {
  id: ID,
  title: 'sync duration p99, before and after',
  verify(input) {
    const got = readable(
      input,
      ID,
      input.metrics.second ?? input.metrics.first,
      'kube-proxy’s /metrics',
    );
    if (!got.ok) return [got.evidence];
    const after = p99(got.value);
    if (after === undefined)
      return [
        evidence(
          input,
          ID,
          got.read,
          false,
          `expected the ${SYNC_DURATION} histogram on /metrics; it is absent`,
          metricSeries(SYNC_DURATION),
        ),
      ];
    const baseMetrics = valueOf(input.metrics.baseline);
    const before = baseMetrics === undefined ? undefined : p99(baseMetrics);
    const baseline =
      before === undefined ? 'IPVS baseline not read' : `IPVS baseline ${shown(before)}`;
    const ratio =
      before !== undefined && before.p99 > 0 && !Number.isNaN(after.p99)
        ? ` (${Number((after.p99 / before.p99).toPrecision(2))}× the baseline)`
        : '';
    return [
      evidence(
        input,
        ID,
        got.read,
        true,
        `sync p99 ${shown(after)} on nftables${ratio}; ${baseline}`,
        metricSeries(SYNC_DURATION),
      ),
    ];
  },
};
