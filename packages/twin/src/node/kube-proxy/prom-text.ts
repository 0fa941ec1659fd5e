// Prometheus text exposition (format 0.0.4) as client_golang writes it: `# HELP`/`# TYPE`,
// labels sorted by name, floats in Go's shortest `%g` form (1.7372352e+09, 262144).

export type Labels = Readonly<Record<string, string>>;
export interface Sample {
  readonly labels: Labels;
  readonly value: number;
}

/** strconv.FormatFloat(f, 'g', -1, 64), which client_golang uses for sample values. */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return '0';
  // Go's shortest %g switches to an exponent when it is < -4 or >= 6.
  const exp = Number(value.toExponential().split('e')[1]);
  return exp < -4 || exp >= 6 ? expForm(value) : String(value);
}

function expForm(value: number): string {
  const [mantissa = '', e = '0'] = value.toExponential().split('e');
  const sign = e.startsWith('-') ? '-' : '+';
  return `${mantissa}e${sign}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const entries = Object.entries(labels);
  if (extra) entries.push(extra);
  if (entries.length === 0) return '';
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}}`;
}

/** client_golang orders the series of a family by their label values. */
function sortByLabels<T extends { readonly labels: Labels }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => {
    const x = labelText(a.labels);
    const y = labelText(b.labels);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** Collects metric families; the output is sorted by family name, as client_golang gathers. */
export class PromWriter {
  private readonly families = new Map<string, string[]>();
  private out: string[] = [];

  private header(name: string, help: string, type: string): void {
    this.out = [`# HELP ${name} [ALPHA] ${help}`, `# TYPE ${name} ${type}`];
    this.families.set(name, this.out);
  }

  metric(name: string, help: string, type: 'counter' | 'gauge', samples: readonly Sample[]): void {
    if (samples.length === 0) return;
    this.header(name, help, type);
    for (const s of sortByLabels(samples))
      this.out.push(`${name}${labelText(s.labels)} ${goFloat(s.value)}`);
  }

  /** All observations fall in one bucket: `count` syncs that each took `seconds`. */
  histogram(
    name: string,
    help: string,
    buckets: readonly number[],
    series: readonly { labels: Labels; count: number; seconds: number }[],
  ): void {
    if (series.length === 0) return;
    this.header(name, help, 'histogram');
    for (const s of sortByLabels(series)) {
      for (const le of buckets) {
        const n = s.seconds <= le ? s.count : 0;
        this.out.push(`${name}_bucket${labelText(s.labels, ['le', goFloat(le)])} ${n}`);
      }
      this.out.push(`${name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${s.count}`);
      this.out.push(`${name}_sum${labelText(s.labels)} ${goFloat(s.count * s.seconds)}`);
      this.out.push(`${name}_count${labelText(s.labels)} ${s.count}`);
    }
  }

  /** A metric without the [ALPHA] marker (process_*, kubernetes_build_info's own help). */
  plain(name: string, help: string, type: string, line: string): void {
    this.families.set(name, [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, line]);
  }

  text(): string {
    const names = [...this.families.keys()].sort();
    return `${names.flatMap((n) => this.families.get(n) ?? []).join('\n')}\n`;
  }
}
