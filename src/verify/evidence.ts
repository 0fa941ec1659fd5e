/**
 * Evidence as people read it: the command, its output cut to its first and last lines (at most
 * 4 KiB, so a 20,000-Service nft listing stays readable in Slack and in the run record), and one
 * verdict line. A read that failed is failed evidence saying what could not be read and why.
 */
import type { Evidence } from '../core/run-state.js';
import type { ProbeRead } from '../probes/read.js';
import { isProbeError } from '../probes/types.js';
import type { VerifyScope } from './types.js';

export const OUTPUT_LIMIT = 4096;

const encoder = new TextEncoder();
const size = (s: string): number => encoder.encode(s).length;

/** The longest head (or tail) of `text` within `budget` bytes, cut at a line break when it has one. */
function clip(text: string, budget: number, fromEnd: boolean): string {
  let n = Math.min(text.length, budget);
  let part = fromEnd ? text.slice(text.length - n) : text.slice(0, n);
  while (size(part) > budget && n > 0) {
    n = Math.floor(n * 0.9);
    part = fromEnd ? text.slice(text.length - n) : text.slice(0, n);
  }
  const nl = fromEnd ? part.indexOf('\n') : part.lastIndexOf('\n');
  if (nl <= 0 || nl >= part.length - 1) return part;
  return fromEnd ? part.slice(nl + 1) : part.slice(0, nl);
}

export function trimOutput(text: string, limit = OUTPUT_LIMIT): string {
  const t = text.replace(/\s+$/, '');
  if (size(t) <= limit) return t;
  const budget = Math.floor((limit - 80) / 2);
  const head = clip(t, budget, false);
  const tail = clip(t, budget, true);
  const middle = t.slice(head.length, t.length - tail.length);
  const lines = middle.split('\n').length - 1;
  const marker = `… ${size(middle)} bytes${lines > 0 ? ` (${lines} lines)` : ''} omitted …`;
  return `${head}\n${marker}\n${tail}`;
}

/** What the read printed: stdout, then stderr; for API reads, the lines it returned. */
export function outputOf(read: ProbeRead<unknown> | undefined): string {
  if (read?.result === undefined) {
    const value = read?.value;
    return Array.isArray(value) ? value.join('\n') : '';
  }
  const { stdout, stderr } = read.result;
  return [stdout.trimEnd(), stderr.trimEnd()].filter((s) => s !== '').join('\n');
}

/**
 * `keep` narrows the output to the lines that matter: a /metrics page is mostly the Go runtime's
 * series, and the 4 KiB cut would keep those and lose kube-proxy's.
 */
export function evidence(
  scope: VerifyScope,
  id: string,
  read: ProbeRead<unknown> | undefined,
  ok: boolean,
  verdict: string,
  keep?: { lines: (line: string) => boolean; what: string },
): Evidence {
  const all = outputOf(read);
  const output =
    keep === undefined || all === ''
      ? all
      : [`(${keep.what} only)`, ...all.split('\n').filter(keep.lines)].join('\n');
  return {
    probe: id,
    step: scope.step,
    node: scope.node,
    argv: read === undefined ? [] : [...read.argv],
    ...(read?.result === undefined ? {} : { exitCode: read.result.exitCode }),
    output: trimOutput(output),
    ok,
    verdict,
    at: read?.at ?? scope.now,
  };
}

/**
 * Failed evidence for a read that is missing or failed, or undefined when the read has a value.
 * `what` names the fact: "kube-proxy's nftables table".
 */
export function unreadable(
  scope: VerifyScope,
  id: string,
  read: ProbeRead<unknown> | undefined,
  what: string,
): Evidence | undefined {
  if (read === undefined) return evidence(scope, id, read, false, `${what} was not read: unknown`);
  if (!isProbeError(read.value)) return undefined;
  const { message } = read.value;
  // Probe messages often start with the fact already ("kube-proxy’s /healthz: curl: (7) …").
  const said = message.startsWith(`${what}: `) ? message : `${what}: ${message}`;
  return evidence(scope, id, read, false, `could not read ${said}`);
}

/** A /metrics page narrowed to the named series (for {@link evidence}'s `keep`). */
export function metricSeries(...names: string[]): {
  lines: (line: string) => boolean;
  what: string;
} {
  const named = (line: string) =>
    names.some((n) => {
      const rest = line.replace(/^# (HELP|TYPE) /, '');
      // A histogram's _bucket, _sum and _count lines belong to it too.
      return rest.startsWith(n) && /^(_bucket|_sum|_count)?[\s{]/.test(rest.slice(n.length));
    });
  return { lines: named, what: names.join(', ') };
}

/** `a, b, c and 4 more`: the first few items of a list, for one verdict line. */
export function sample(items: readonly string[], max = 5): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

export const plural = (n: number, word: string, many = `${word}s`): string =>
  `${n} ${n === 1 ? word : many}`;

export type Readable<T> =
  { ok: true; read: ProbeRead<T>; value: T } | { ok: false; evidence: Evidence };

/** The read's value, or the failed evidence that says why it is unknown. */
export function readable<T>(
  scope: VerifyScope,
  id: string,
  read: ProbeRead<T> | undefined,
  what: string,
): Readable<T> {
  if (read === undefined || isProbeError(read.value))
    return {
      ok: false,
      evidence:
        unreadable(scope, id, read, what) ?? evidence(scope, id, read, false, `${what}: unknown`),
    };
  return { ok: true, read, value: read.value };
}
