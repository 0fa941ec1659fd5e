// klog's text format, as kube-proxy writes it to stderr:
// `I1129 14:02:03.123456       1 server_linux.go:231] "Using nftables Proxier" key="value"`.

export type KlogLevel = 'I' | 'W' | 'E';
export type KlogValue = string | number | boolean | readonly string[];

/** Go's %q for the ASCII text kube-proxy logs; JSON string escaping matches it there. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

function formatValue(value: KlogValue): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `[${value.map(goQuote).join(',')}]`;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The klog header: level, MMDD, wall clock with microseconds, thread id padded to 7, file:line. */
export function klogHeader(level: KlogLevel, micros: number, source: string): string {
  const d = new Date(Math.floor(micros / 1000));
  const date = `${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}`;
  const time = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  const frac = pad(((micros % 1_000_000) + 1_000_000) % 1_000_000, 6);
  return `${level}${date} ${time}.${frac} ${'1'.padStart(7)} ${source}]`;
}

/**
 * Collects the lines of one kube-proxy run. Timestamps advance by a fixed, source-dependent step
 * so two runs with the same input print the same log.
 */
export class KlogWriter {
  private micros: number;
  readonly lines: string[] = [];

  constructor(nowMs: number) {
    this.micros = Math.floor(nowMs) * 1000 + 102_341;
  }

  private emit(level: KlogLevel, source: string, text: string): void {
    this.micros += 37 + (source.length % 11) * 13;
    this.lines.push(`${klogHeader(level, this.micros, source)} ${text}`);
  }

  /** Structured line: quoted message then key=value pairs (`err` goes first, as klog puts it). */
  log(
    level: KlogLevel,
    source: string,
    msg: string,
    kv: Readonly<Record<string, KlogValue>> = {},
  ): void {
    const pairs = Object.entries(kv).map(([k, v]) => `${k}=${formatValue(v)}`);
    this.emit(level, source, [goQuote(msg), ...pairs].join(' '));
  }

  /** Unstructured line, as older client-go informers print (`Waiting for caches to sync for …`). */
  raw(level: KlogLevel, source: string, text: string): void {
    this.emit(level, source, text);
  }
}
