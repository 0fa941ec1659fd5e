/**
 * promtool-style lint of a Prometheus text exposition (the rules of prometheus/client_golang's
 * testutil/promlint that apply to text: help present, counters end in `_total` and nothing else
 * does, snake_case names, base units, no reserved suffixes on other types) plus this product's
 * own: every series is `proxy_migrate_*`, a stock `process_*`/`nodejs_*` series, or the queue's
 * `bullmq_*`; no label is named `job` or `instance` (Prometheus sets those); no label that
 * would carry a node, user or run id.
 */
import { parsePrometheusText } from '../../src/core/parse/prometheus.js';

const PREFIXES = ['proxy_migrate_', 'process_', 'nodejs_', 'bullmq_'];
const RESERVED_LABELS = new Set(['job', 'instance']);
const HIGH_CARDINALITY = new Set(['node', 'user', 'user_id', 'run', 'run_id', 'pod', 'ts']);
/**
 * Stock names that break a naming rule but are kept, since stock dashboards query them by name:
 * prom-client's nodejs_active_* gauges end in _total, BullMQ's queue gauge ends in _count. The
 * label rules still apply to them.
 */
const STOCK_NAMES = new Set([
  'nodejs_active_resources_total',
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'bullmq_job_count',
]);
const NON_BASE_UNITS =
  /_(milliseconds|microseconds|nanoseconds|minutes|hours|days|kilobytes|megabytes|gigabytes|percent)(_|$)/;

export function lintExposition(text: string): string[] {
  const result = parsePrometheusText(text);
  if (!result.ok) return [`unparsable exposition: ${result.error}`];
  const problems: string[] = [];
  for (const family of result.value.families.values()) {
    const { name, type } = family;
    if (family.help === undefined || family.help.trim() === '') problems.push(`${name}: no HELP`);
    if (!/^[a-z_:][a-z0-9_:]*$/.test(name)) problems.push(`${name}: not snake_case`);
    if (!PREFIXES.some((p) => name.startsWith(p)))
      problems.push(`${name}: neither proxy_migrate_* nor a stock process_/nodejs_/bullmq_ name`);
    const stock = STOCK_NAMES.has(name);
    if (type === 'counter' && !name.endsWith('_total'))
      problems.push(`${name}: a counter must end in _total`);
    if (!stock && type !== 'counter' && name.endsWith('_total'))
      problems.push(`${name}: only counters end in _total`);
    if (!stock && type !== 'histogram' && type !== 'summary' && /_(count|sum|bucket)$/.test(name))
      problems.push(`${name}: _count, _sum and _bucket belong to histograms and summaries`);
    if (NON_BASE_UNITS.test(name)) problems.push(`${name}: use base units (seconds, bytes)`);
    for (const sample of family.samples) {
      for (const label of Object.keys(sample.labels)) {
        if (RESERVED_LABELS.has(label))
          problems.push(
            `${name}: label "${label}" is set by Prometheus (it would become exported_${label})`,
          );
        if (HIGH_CARDINALITY.has(label))
          problems.push(`${name}: label "${label}" is unbounded (one series per ${label})`);
        if (!/^[a-z_][a-z0-9_]*$/.test(label))
          problems.push(`${name}: label "${label}" not snake_case`);
      }
    }
  }
  return [...new Set(problems)];
}

/** Metric names an expression (PromQL) refers to: every identifier that is a known family. */
export function metricNamesIn(expr: string): string[] {
  return [...new Set(expr.match(/\b(proxy_migrate|process|nodejs|bullmq)_[a-z0-9_]+/g) ?? [])];
}

/** A histogram's or counter's sample name back to its family (`…_bucket` → `…`). */
export function familyOf(sampleName: string, families: ReadonlySet<string>): string | undefined {
  if (families.has(sampleName)) return sampleName;
  const base = sampleName.replace(/_(bucket|sum|count)$/, '');
  return families.has(base) ? base : undefined;
}
