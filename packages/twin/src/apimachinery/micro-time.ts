// metav1.MicroTime as the apiserver decodes it: JSON strings in exactly the RFC3339Micro layout
// (`2006-01-02T15:04:05.000000Z07:00`, staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/
// micro_time.go), parsed with Go's time.Parse rules so a `toISOString()` value (three fraction
// digits) fails with Go's own error text. Stored values are re-printed in UTC with six digits.

export const rfc3339Micro = '2006-01-02T15:04:05.000000Z07:00';

/** A Go time.ParseError, worded as its Error() method prints it. */
export class MicroTimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MicroTimeError';
  }
}

/** Go's time.quote: printable ASCII as is (with `"` and `\` escaped), other bytes as \xNN. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x80 || code < 0x20) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';

/** getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

/** atoi: an optional sign, then digits only. */
function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export interface MicroInstant {
  /** Whole seconds since the Unix epoch (UTC). */
  seconds: number;
  /** Microseconds within the second, 0 to 999999. */
  micros: number;
}

type Step = (value: string) => { rest: string; range?: string } | undefined;

/** Parses `value` with the RFC3339Micro layout exactly as Go's time.Parse does. */
export function parseMicroTime(value: string): MicroInstant {
  const fail = (layoutElem: string, valueElem: string): never => {
    throw new MicroTimeError(
      `parsing time ${goQuote(value)} as ${goQuote(rfc3339Micro)}: cannot parse ${goQuote(valueElem)} as ${goQuote(layoutElem)}`,
    );
  };
  const outOfRange = (what: string): never => {
    throw new MicroTimeError(`parsing time ${goQuote(value)}: ${what} out of range`);
  };
  const f = { year: 0, month: 0, day: 0, hour: 0, min: 0, sec: 0, micros: 0, offset: 0 };
  const two =
    (
      key: 'month' | 'day' | 'hour' | 'min' | 'sec',
      fixed: boolean,
      max?: number,
      name?: string,
    ): Step =>
    (v) => {
      const got = getnum(v, fixed);
      if (!got) return undefined;
      f[key] = got[0];
      const bad = max !== undefined && (got[0] >= max || (key === 'month' && got[0] === 0));
      return bad && name ? { rest: got[1], range: name } : { rest: got[1] };
    };
  // The layout as Go's nextStdChunk splits it: a literal prefix, then one element.
  const chunks: [string, string, Step][] = [
    [
      '',
      '2006',
      (v) => {
        if (v.length < 4 || !isDigit(v, 0)) return undefined;
        const year = atoi(v.slice(0, 4));
        if (year === undefined) return undefined;
        f.year = year;
        return { rest: v.slice(4) };
      },
    ],
    ['-', '01', two('month', true, 13, 'month')],
    ['-', '02', two('day', true)],
    ['T', '15', two('hour', false, 24, 'hour')],
    [':', '04', two('min', true, 60, 'minute')],
    [':', '05', two('sec', true, 60, 'second')],
    [
      '',
      '.000000',
      (v) => {
        if (v.length < 7 || (v[0] !== '.' && v[0] !== ',')) return undefined;
        const ns = atoi(v.slice(1, 7));
        if (ns === undefined) return undefined;
        f.micros = ns;
        return ns < 0 ? { rest: v.slice(7), range: 'fractional second' } : { rest: v.slice(7) };
      },
    ],
    [
      '',
      'Z07:00',
      (v) => {
        if (v.startsWith('Z')) return { rest: v.slice(1) };
        if (v.length < 6 || v[3] !== ':') return undefined;
        // Go parses both numbers, then range-checks, then the sign; a range error wins.
        const hr = getnum(v.slice(1, 3), true);
        const mm = hr ? getnum(v.slice(4, 6), true) : undefined;
        let range: string | undefined;
        if ((hr?.[0] ?? 0) > 24) range = 'time zone offset hour';
        if ((mm?.[0] ?? 0) > 60) range = 'time zone offset minute';
        if (range) return { rest: v.slice(6), range };
        if (!hr || !mm || (v[0] !== '+' && v[0] !== '-')) return undefined;
        f.offset = (v[0] === '-' ? -1 : 1) * (hr[0] * 60 + mm[0]) * 60;
        return { rest: v.slice(6) };
      },
    ],
  ];
  let rest = value;
  for (const [prefix, element, step] of chunks) {
    for (const ch of prefix) {
      if (rest[0] !== ch) fail(prefix, rest);
      rest = rest.slice(1);
    }
    const got = step(rest);
    if (!got) return fail(element, rest);
    if (got.range) outOfRange(got.range);
    rest = got.rest;
  }
  if (rest !== '')
    throw new MicroTimeError(`parsing time ${goQuote(value)}: extra text: ${goQuote(rest)}`);
  if (f.day < 1 || f.day > daysIn(f.month, f.year)) outOfRange('day');
  const date = new Date(0);
  date.setUTCFullYear(f.year, f.month - 1, f.day);
  date.setUTCHours(f.hour, f.min, f.sec, 0);
  return { seconds: date.getTime() / 1000 - f.offset, micros: f.micros };
}

/** MicroTime.MarshalJSON: UTC, six fraction digits. */
export function formatMicroTime(t: MicroInstant): string {
  const date = new Date(t.seconds * 1000);
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  const stamp = date.toISOString().slice(4, 19);
  return `${year}${stamp}.${String(t.micros).padStart(6, '0')}Z`;
}

/** A simulated-clock instant (epoch ms) as a MicroTime string. */
export function microTimeAt(epochMs: number): string {
  const seconds = Math.floor(epochMs / 1000);
  return formatMicroTime({ seconds, micros: Math.floor((epochMs - seconds * 1000) * 1000) });
}

/** Epoch ms of a stored MicroTime string (microseconds beyond ms are dropped). */
export function microTimeMs(value: string): number {
  const t = parseMicroTime(value);
  return t.seconds * 1000 + Math.floor(t.micros / 1000);
}

/** What encoding/json says when a MicroTime field holds something other than a string. */
export function jsonTypeError(value: unknown): string {
  const type = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
  return `json: cannot unmarshal ${type} into Go value of type string`;
}
