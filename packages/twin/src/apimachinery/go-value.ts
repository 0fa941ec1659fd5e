// Bad values as a 1.33 apiserver prints them. field.Error.ErrorBody (apimachinery v0.33,
// pkg/util/validation/field/errors.go) prints strings quoted and numbers bare, but anything else
// (maps, slices, structs such as intstr.IntOrString or v1.LabelSelector) with Go's `%#v`, so a
// validator that reports such a value wraps it in a GoValue rendered the way Go would.

import { asString } from './types.js';

/** A bad value already rendered in Go syntax; field errors print its text as is. */
export class GoValue {
  constructor(readonly text: string) {}
}

/** Go's %#v of a string: a double-quoted Go literal (JSON's escaping matches for printable text). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** `map[string]string{"a":"1", "b":"2"}`, keys sorted as fmt sorts them; nil for undefined. */
export function goStringMap(m: Readonly<Record<string, unknown>> | undefined | null): GoValue {
  if (m === undefined || m === null) return new GoValue('map[string]string(nil)');
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${goQuote(k)}:${goQuote(asString(m[k]))}`);
  return new GoValue(`map[string]string{${entries.join(', ')}}`);
}

/** `[]string{"a", "b"}`, or `[]string(nil)` when absent. */
export function goStringSlice(values: readonly unknown[] | undefined): string {
  if (values === undefined) return '[]string(nil)';
  return `[]string{${values.map((v) => goQuote(String(v))).join(', ')}}`;
}

/** intstr.IntOrString as %#v prints the struct (its String method has a pointer receiver). */
export function goIntOrString(value: unknown): GoValue {
  if (typeof value === 'string')
    return new GoValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`);
  const n = typeof value === 'number' ? value : 0;
  return new GoValue(`intstr.IntOrString{Type:0, IntVal:${n}, StrVal:""}`);
}

function requirement(r: unknown): string {
  const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
  const values = Array.isArray(o['values']) ? (o['values'] as unknown[]) : undefined;
  return `v1.LabelSelectorRequirement{Key:${goQuote(asString(o['key']))}, Operator:${goQuote(asString(o['operator']))}, Values:${goStringSlice(values)}}`;
}

/** v1.LabelSelector as %#v prints a dereferenced *metav1.LabelSelector. */
export function goLabelSelector(selector: unknown): GoValue {
  if (selector === undefined || selector === null) return new GoValue('null');
  const o = selector as Record<string, unknown>;
  const labels = o['matchLabels'] as Record<string, unknown> | undefined;
  const exprs = Array.isArray(o['matchExpressions'])
    ? `[]v1.LabelSelectorRequirement{${(o['matchExpressions'] as unknown[]).map(requirement).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoValue(
    `v1.LabelSelector{MatchLabels:${goStringMap(labels).text}, MatchExpressions:${exprs}}`,
  );
}

/** A Go struct literal from ordered, already rendered fields: `pkg.Type{A:1, B:"x"}`. */
export function goStruct(type: string, fields: readonly (readonly [string, string])[]): GoValue {
  return new GoValue(`${type}{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`);
}
