/**
 * Prometheus text exposition (format 0.0.4), as kube-proxy's /metrics serves it through
 * client_golang: `# HELP`/`# TYPE` lines, then `name{label="value",…} value [timestamp]`.
 * Histogram and summary samples (`_bucket`, `_sum`, `_count`) belong to their declared family.
 * Values include `+Inf`, `-Inf`, `NaN` and Go's exponent form (`1.796116816413e+09`).
 */
import { parsed, unparsable, type Parsed } from './parsed.js';

export interface Sample {
  /** The sample's own name: `…_bucket`, `…_count`, or the family name. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  /** `counter`, `gauge`, `histogram`, `summary` or `untyped`. */
  type: string;
  help?: string;
  samples: Sample[];
}

export interface Metrics {
  families: Map<string, MetricFamily>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created'];

// Go's strconv.ParseFloat, which Prometheus' parser uses, reads NaN and Inf in any case
// (prom-client writes `Nan`), and `Infinity` too.
function parseValue(text: string): number | undefined {
  if (/^[+-]?inf(inity)?$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/** `{a="x",b="y\"z"}` from position 0 of `text`; returns the labels and the rest. */
function parseLabels(text: string): { labels: Record<string, string>; rest: string } | undefined {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    while (text[i] === ' ' || text[i] === ',') i += 1;
    if (text[i] === '}') return { labels, rest: text.slice(i + 1) };
    const name = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(i))?.[0];
    if (name === undefined || text[i + name.length] !== '=' || text[i + name.length + 1] !== '"')
      return undefined;
    i += name.length + 2;
    let value = '';
    for (; i < text.length && text[i] !== '"'; i += 1) {
      if (text[i] !== '\\') value += text[i];
      else {
        i += 1;
        value += text[i] === 'n' ? '\n' : (text[i] ?? '');
      }
    }
    if (i >= text.length) return undefined;
    labels[name] = value;
    i += 1;
  }
}

function parseSample(line: string): Sample | undefined {
  const name = NAME.exec(line)?.[0];
  if (name === undefined) return undefined;
  let rest = line.slice(name.length);
  let labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    const parsedLabels = parseLabels(rest);
    if (parsedLabels === undefined) return undefined;
    labels = parsedLabels.labels;
    rest = parsedLabels.rest;
  }
  const [valueText = '', timestamp] = rest.trim().split(/\s+/);
  const value = parseValue(valueText);
  if (value === undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp)))
    return undefined;
  return { name, labels, value };
}

/** The declared family a sample belongs to: `x_bucket` → `x` when `x` is a histogram. */
function familyOf(families: Map<string, MetricFamily>, sample: string): string {
  if (families.has(sample)) return sample;
  for (const suffix of SUFFIXES) {
    const base = sample.endsWith(suffix) ? sample.slice(0, -suffix.length) : undefined;
    if (base !== undefined && families.has(base)) return base;
  }
  return sample;
}

export function parsePrometheusText(text: string): Parsed<Metrics> {
  const families = new Map<string, MetricFamily>();
  const family = (name: string): MetricFamily => {
    let f = families.get(name);
    if (f === undefined) {
      f = { name, type: 'untyped', samples: [] };
      families.set(name, f);
    }
    return f;
  };
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const meta = /^#\s*(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
    if (meta !== null) {
      const f = family(meta[2] ?? '');
      if (meta[1] === 'TYPE') f.type = (meta[3] ?? '').trim() || 'untyped';
      else f.help = meta[3] ?? '';
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = parseSample(line);
    if (sample === undefined) return unparsable(`metrics line ${i + 1}: cannot parse "${line}"`);
    family(familyOf(families, sample.name)).samples.push(sample);
  }
  return parsed({ families });
}

/** Every sample named `name` (a family name or a `_bucket`/`_count` name), in exposition order. */
export function samplesNamed(metrics: Metrics, name: string): Sample[] {
  const family = metrics.families.get(familyOf(metrics.families, name));
  return family?.samples.filter((s) => s.name === name) ?? [];
}

/** `{ip_family="IPv4"}` or `` for no labels: how a series is named in a verdict. */
export function labelText(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '' : `{${entries.map(([k, v]) => `${k}="${v}"`).join(',')}}`;
}
