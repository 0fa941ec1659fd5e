// Go's fmt %v of a decoded JSON value (map[string]interface{} with int64 numbers), which the
// apiserver prints into the 422 of a strict strategic merge patch: `map[spec:map[foo:1]]`.

import type { JsonValue } from '../../apimachinery/types.js';
import { isJsonObject } from '../../apimachinery/types.js';

/** strconv.FormatFloat(f, 'g', -1, 64): the exponent form below 1e-4 and from 1e6 on. */
function goFloat(n: number): string {
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 6) {
    const [mantissa = '', e = '0'] = n.toExponential().split('e');
    const sign = e.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${e.replace(/^[-+]/, '').padStart(2, '0')}`;
  }
  return String(n);
}

export function goValue(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isJsonObject(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goValue(v[k] ?? null)}`)
      .join(' ')}]`;
  return '';
}
