// Prometheus text exposition (format 0.0.4) as client_golang's expfmt writes it
// (prometheus/common expfmt/text_create.go): `# HELP`/`# TYPE`, families sorted by name, series
// sorted by label values, labels sorted by name with `le`/`quantile` last, floats in Go's
// shortest `%g` form (1.7372352e+09, 262144), and families without a series left out.

export type Labels = Readonly<Record<string, string>>;
export interface Sample {
  readonly labels: Labels;
  readonly value: number;
}

/** One histogram series: per-bucket (not cumulative) counts, the count above the last bound, the sum. */
export interface HistogramSeries {
  readonly labels: Labels;
  readonly counts: readonly number[];
  readonly overflow: number;
  readonly sum: number;
}

export interface SummarySeries {
  readonly labels: Labels;
  readonly quantiles: readonly (readonly [number, number])[];
  readonly sum: number;
  readonly count: number;
}

/** strconv.FormatFloat(f, 'g', -1, 64), which expfmt uses for every value and `le`. */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return '0';
  // Go's shortest %g switches to an exponent when it is < -4 or >= 6 (eprec = 6 when shortest).
  const [mantissa = '', e = '0'] = value.toExponential().split('e');
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(value);
  const sign = exp < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** The `[ALPHA] ` prefix component-base puts on the help of every ALPHA metric. */
export const alpha = (help: string): string => `[ALPHA] ${help}`;

const escapeHelp = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeValue = (s: string): string =>
  s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

const byName = ([a]: readonly [string, string], [b]: readonly [string, string]): number =>
  a < b ? -1 : a > b ? 1 : 0;

function sortedPairs(labels: Labels): [string, string][] {
  return Object.entries(labels).sort(byName);
}

function labelText(labels: Labels, extra?: readonly [string, string]): string {
  const pairs: (readonly [string, string])[] = sortedPairs(labels);
  if (extra) pairs.push(extra);
  if (pairs.length === 0) return '';
  return `{${pairs.map(([k, v]) => `${k}="${escapeValue(v)}"`).join(',')}}`;
}

/** internal.MetricSorter: label values compared in label-name order. */
function compareLabels(a: Labels, b: Labels): number {
  const x = sortedPairs(a);
  const y = sortedPairs(b);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const vx = x[i]?.[1] ?? '';
    const vy = y[i]?.[1] ?? '';
    if (vx !== vy) return vx < vy ? -1 : 1;
  }
  return x.length - y.length;
}

function sorted<T extends { readonly labels: Labels }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareLabels(a.labels, b.labels));
}

/** Collects metric families; text() sorts them by name, as the registry's Gather does. */
export class PromWriter {
  private readonly families = new Map<string, string[]>();

  private family(name: string, help: string, type: string): string[] {
    const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`];
    this.families.set(name, lines);
    return lines;
  }

  counter(name: string, help: string, samples: readonly Sample[]): void {
    this.scalar(name, help, 'counter', samples);
  }

  gauge(name: string, help: string, samples: readonly Sample[]): void {
    this.scalar(name, help, 'gauge', samples);
  }

  private scalar(name: string, help: string, type: string, samples: readonly Sample[]): void {
    if (samples.length === 0) return;
    const out = this.family(name, help, type);
    for (const s of sorted(samples)) out.push(`${name}${labelText(s.labels)} ${goFloat(s.value)}`);
  }

  histogram(
    name: string,
    help: string,
    buckets: readonly number[],
    series: readonly HistogramSeries[],
  ): void {
    if (series.length === 0) return;
    const out = this.family(name, help, 'histogram');
    for (const s of sorted(series)) {
      let cumulative = 0;
      buckets.forEach((le, i) => {
        cumulative += s.counts[i] ?? 0;
        out.push(`${name}_bucket${labelText(s.labels, ['le', goFloat(le)])} ${cumulative}`);
      });
      const count = cumulative + s.overflow;
      out.push(`${name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${count}`);
      out.push(`${name}_sum${labelText(s.labels)} ${goFloat(s.sum)}`);
      out.push(`${name}_count${labelText(s.labels)} ${count}`);
    }
  }

  summary(name: string, help: string, series: readonly SummarySeries[]): void {
    if (series.length === 0) return;
    const out = this.family(name, help, 'summary');
    for (const s of sorted(series)) {
      for (const [q, v] of s.quantiles)
        out.push(`${name}${labelText(s.labels, ['quantile', goFloat(q)])} ${goFloat(v)}`);
      out.push(`${name}_sum${labelText(s.labels)} ${goFloat(s.sum)}`);
      out.push(`${name}_count${labelText(s.labels)} ${s.count}`);
    }
  }

  text(): string {
    const names = [...this.families.keys()].sort();
    return `${names.flatMap((n) => this.families.get(n) ?? []).join('\n')}\n`;
  }
}

/** `count` observations of one value, put in the first bucket that holds it. */
export function observedAs(
  labels: Labels,
  buckets: readonly number[],
  count: number,
  value: number,
): HistogramSeries {
  const counts = buckets.map(() => 0);
  const i = buckets.findIndex((le) => value <= le);
  if (i >= 0) counts[i] = count;
  return { labels, counts, overflow: i >= 0 ? 0 : count, sum: count * value };
}
