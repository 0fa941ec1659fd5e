/**
 * klog's text format as kube-proxy writes it (k8s.io/klog/v2):
 * `I1129 14:02:03.123456       1 server_linux.go:231] "Using nftables Proxier" ipFamily="IPv4"`;
 * structured lines quote the message and follow it with key=value pairs (keys may hold spaces:
 * `primary ipFamily="IPv4"`), older unstructured ones print plain text (`Using ipvs Proxier.`).
 * `kubectl logs --timestamps` puts an RFC 3339 time in front, which is skipped.
 */

export interface KlogLine {
  level: 'I' | 'W' | 'E' | 'F';
  /** `MMDD hh:mm:ss.uuuuuu` as printed (klog has no year). */
  time: string;
  /** `server_linux.go:231`. */
  source: string;
  message: string;
  /** Structured key=value pairs, values unquoted. */
  fields: Record<string, string>;
  raw: string;
}

const HEADER =
  /^(?:\d{4}-\d\d-\d\dT\S+\s+)?([IWEF])(\d{4} \d\d:\d\d:\d\d\.\d{6})\s+\d+\s+([^\]\s]+)\]\s?(.*)$/;

/** A Go-quoted string at the start of `text` (JSON-compatible for what kube-proxy logs). */
function quoted(text: string): { value: string; rest: string } | undefined {
  let i = 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  if (i >= text.length) return undefined;
  try {
    return { value: JSON.parse(text.slice(0, i + 1)) as string, rest: text.slice(i + 1) };
  } catch {
    return { value: text.slice(1, i), rest: text.slice(i + 1) };
  }
}

function parseFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let rest = text.trimStart();
  while (rest !== '') {
    const eq = rest.indexOf('=');
    if (eq <= 0) break;
    const key = rest.slice(0, eq).trim();
    rest = rest.slice(eq + 1);
    let value: string;
    if (rest.startsWith('"')) {
      const q = quoted(rest);
      if (q === undefined) break;
      ({ value, rest } = q);
    } else {
      const close = rest.startsWith('[') ? rest.indexOf(']') + 1 : 0;
      const end = close > 0 ? close : rest.search(/\s|$/);
      value = rest.slice(0, end);
      rest = rest.slice(end);
    }
    fields[key] = value;
    rest = rest.trimStart();
  }
  return fields;
}

/** Undefined for lines that are not klog (a panic trace, a wrapped line). */
export function parseKlogLine(raw: string): KlogLine | undefined {
  const match = HEADER.exec(raw.trimEnd());
  if (match === null) return undefined;
  const body = match[4] ?? '';
  const structured = body.startsWith('"') ? quoted(body) : undefined;
  return {
    level: match[1] as KlogLine['level'],
    time: match[2] ?? '',
    source: match[3] ?? '',
    message: structured?.value ?? body,
    fields: structured === undefined ? {} : parseFields(structured.rest),
    raw,
  };
}
