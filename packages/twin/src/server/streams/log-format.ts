// What a log request returns, as the kubelet computes it: sinceSeconds/sinceTime, tailLines,
// timestamps in fixed-width RFC 3339 nano (RFC3339NanoFixed), and a limitBytes budget.

export interface LogLine {
  /** Epoch milliseconds on the twin's simulated clock; a fraction (to ~0.25 µs) adds sub-ms time. */
  time: number;
  /** One line, without its trailing newline (one is added if missing). */
  text: string;
}

export interface LogOptions {
  tailLines: number | undefined;
  /** Lines older than this (epoch ms) are left out. */
  sinceMs: number | undefined;
  timestamps: boolean;
}

/** `2025-08-11T08:30:10.123456789Z`: always nine fractional digits, like the kubelet writes. */
export function rfc3339NanoFixed(ms: number): string {
  const whole = Math.floor(ms);
  const subMsNanos = Math.min(999_999, Math.round((ms - whole) * 1e6));
  const iso = new Date(whole).toISOString(); // 2025-08-11T08:30:10.123Z
  return `${iso.slice(0, 23)}${String(subMsNanos).padStart(6, '0')}Z`;
}

export function formatLine(line: LogLine, timestamps: boolean): string {
  const text = line.text.endsWith('\n') ? line.text : `${line.text}\n`;
  return timestamps ? `${rfc3339NanoFixed(line.time)} ${text}` : text;
}

export function selectLines(lines: readonly LogLine[], options: LogOptions): LogLine[] {
  const { sinceMs, tailLines } = options;
  const recent = sinceMs === undefined ? [...lines] : lines.filter((l) => l.time >= sinceMs);
  if (tailLines === undefined) return recent;
  return tailLines === 0 ? [] : recent.slice(-tailLines);
}

/** Counts bytes against limitBytes; `take` returns what may still be written (maybe nothing). */
export class ByteBudget {
  private left: number;

  constructor(limit: number | undefined) {
    this.left = limit ?? Number.POSITIVE_INFINITY;
  }

  get exhausted(): boolean {
    return this.left <= 0;
  }

  take(text: string): Buffer {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= this.left) {
      this.left -= bytes.length;
      return bytes;
    }
    const cut = bytes.subarray(0, Math.max(0, this.left));
    this.left = 0;
    return cut;
  }
}
