/**
 * A quantile from a Prometheus histogram, computed as PromQL's histogram_quantile does
 * (prometheus/promql/quantile.go, bucketQuantile): linear interpolation inside the bucket holding
 * the rank, the lower bound of the first bucket taken as 0, and the +Inf bucket answered with the
 * highest finite bound. The playbook's baseline: p99 of kubeproxy_sync_proxy_rules_duration_seconds.
 */
import { samplesNamed, type Metrics } from './prometheus.js';

export interface Bucket {
  /** The bucket's upper bound (`le`), +Infinity for the last one. */
  le: number;
  /** Observations at or below `le` (cumulative). */
  count: number;
}

/** NaN when the histogram has no observations or no +Inf bucket, as PromQL answers. */
export function histogramQuantile(q: number, input: readonly Bucket[]): number {
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const sorted = [...input].sort((a, b) => a.le - b.le);
  // Coalesce equal bounds, then force the counts to be monotonic (scrape races can break it).
  const buckets: Bucket[] = [];
  for (const b of sorted) {
    const last = buckets[buckets.length - 1];
    if (last !== undefined && last.le === b.le) last.count += b.count;
    else buckets.push({ ...b });
  }
  for (let i = 1; i < buckets.length; i += 1) {
    const prev = buckets[i - 1]?.count ?? 0;
    const b = buckets[i];
    if (b !== undefined && b.count < prev) b.count = prev;
  }
  const top = buckets[buckets.length - 1];
  if (buckets.length < 2 || top === undefined || top.le !== Infinity || top.count === 0) return NaN;
  let rank = q * top.count;
  let index = buckets.findIndex((b) => b.count >= rank);
  if (index < 0) index = buckets.length - 1;
  if (index === buckets.length - 1) return buckets[buckets.length - 2]?.le ?? NaN;
  const bucket = buckets[index];
  if (bucket === undefined) return NaN;
  if (index === 0 && bucket.le <= 0) return bucket.le;
  let start = 0;
  let count = bucket.count;
  const previous = buckets[index - 1];
  if (previous !== undefined) {
    start = previous.le;
    count -= previous.count;
    rank -= previous.count;
  }
  return start + (bucket.le - start) * (rank / count);
}

/**
 * A histogram family's buckets summed across its series (`sum by (le)`), e.g. both ip_family
 * series of kube-proxy's sync histogram; undefined when the family has no buckets.
 */
export function histogramBuckets(metrics: Metrics, family: string): Bucket[] | undefined {
  const byLe = new Map<number, number>();
  for (const s of samplesNamed(metrics, `${family}_bucket`)) {
    const raw = s.labels['le'];
    const le = raw === '+Inf' ? Infinity : Number(raw);
    if (raw === undefined || Number.isNaN(le)) continue;
    byLe.set(le, (byLe.get(le) ?? 0) + s.value);
  }
  if (byLe.size === 0) return undefined;
  return [...byLe.entries()].map(([le, count]) => ({ le, count }));
}

/** Total observations of a histogram family (its `_count`, summed over series). */
export function histogramCount(metrics: Metrics, family: string): number | undefined {
  const counts = samplesNamed(metrics, `${family}_count`);
  return counts.length === 0 ? undefined : counts.reduce((sum, s) => sum + s.value, 0);
}
