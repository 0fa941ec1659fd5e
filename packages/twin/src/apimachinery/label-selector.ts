// Label selectors in the apimachinery string grammar (`a=b,c!=d,e in (f,g),!h`), which is what
// kubectl and client-node put in `labelSelector`, and the LabelSelector objects workloads carry.

import { asArray, asRecord, asString, isJsonObject } from './types.js';

export type LabelOp = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  op: LabelOp;
  values: string[];
}

export type LabelSelector = LabelRequirement[];

export class SelectorParseError extends Error {}

const special = new Set([' ', '\t', ',', '(', ')', '!', '=', '<', '>']);

type Token = { kind: 'word'; text: string } | { kind: 'op'; text: string };

function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i] ?? '';
    if (ch === ' ' || ch === '\t') {
      i += 1;
    } else if (ch === '!' && input[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '!=' });
      i += 2;
    } else if (ch === '=' && input[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '==' });
      i += 2;
    } else if (special.has(ch)) {
      tokens.push({ kind: 'op', text: ch });
      i += 1;
    } else {
      let j = i;
      while (j < input.length && !special.has(input[j] ?? '')) j += 1;
      tokens.push({ kind: 'word', text: input.slice(i, j) });
      i = j;
    }
  }
  return tokens;
}

/** Parses a selector string; an empty string selects everything. */
export function parseLabelSelector(input: string): LabelSelector {
  const tokens = lex(input);
  const out: LabelSelector = [];
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const fail = (what: string): never => {
    const found = peek();
    throw new SelectorParseError(
      `unable to parse requirement: found '${found ? found.text : 'EOS'}', expected: ${what}`,
    );
  };
  const word = (): string => {
    const t = peek();
    if (t?.kind !== 'word') return fail('identifier');
    pos += 1;
    return t.text;
  };
  while (pos < tokens.length) {
    const first = peek();
    if (first?.kind === 'op' && first.text === '!') {
      pos += 1;
      out.push({ key: word(), op: '!', values: [] });
    } else {
      const key = word();
      const next = peek();
      if (next === undefined || (next.kind === 'op' && next.text === ',')) {
        out.push({ key, op: 'exists', values: [] });
      } else if (next.kind === 'word' && (next.text === 'in' || next.text === 'notin')) {
        pos += 1;
        if (peek()?.text !== '(') fail("'('");
        pos += 1;
        const values: string[] = [];
        while (peek()?.text !== ')') {
          const t = peek();
          if (t?.kind === 'word') {
            values.push(t.text);
            pos += 1;
          } else if (t?.text === ',') {
            if (values.length === 0 || tokens[pos - 1]?.text === ',') values.push('');
            pos += 1;
          } else {
            fail("')'");
          }
        }
        pos += 1;
        out.push({ key, op: next.text, values });
      } else if (next.kind === 'op' && ['=', '==', '!=', '<', '>'].includes(next.text)) {
        pos += 1;
        const valueTok = peek();
        let value = '';
        if (valueTok?.kind === 'word') {
          value = valueTok.text;
          pos += 1;
        }
        const op: LabelOp =
          next.text === '!=' ? '!=' : next.text === '<' ? 'lt' : next.text === '>' ? 'gt' : '=';
        if ((op === 'lt' || op === 'gt') && !/^-?\d+$/.test(value)) {
          throw new SelectorParseError(
            `unable to parse requirement: for 'gt', 'lt' operators, the value must be an integer`,
          );
        }
        out.push({ key, op, values: [value] });
      } else {
        fail("'=', '!=', '==', 'in', notin'");
      }
    }
    const sep = peek();
    if (sep === undefined) break;
    if (sep.text !== ',') fail("','");
    pos += 1;
    if (pos >= tokens.length) fail('identifier');
  }
  return out;
}

function matchesOne(req: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  const value = labels[req.key];
  switch (req.op) {
    case '=':
      return has && value === req.values[0];
    case '!=':
      return !has || value !== req.values[0];
    case 'in':
      return has && req.values.includes(value ?? '');
    case 'notin':
      return !has || !req.values.includes(value ?? '');
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(value ?? '')) return false;
      const n = Number(value);
      const bound = Number(req.values[0]);
      return req.op === 'gt' ? n > bound : n < bound;
    }
  }
}

export function matchesLabels(
  selector: LabelSelector,
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  return selector.every((req) => matchesOne(req, l));
}

/** Converts a metav1.LabelSelector object (matchLabels + matchExpressions). */
export function fromLabelSelectorObject(value: unknown): LabelSelector {
  const obj = asRecord(value);
  const out: LabelSelector = [];
  for (const [key, v] of Object.entries(asRecord(obj['matchLabels']))) {
    out.push({ key, op: '=', values: [asString(v)] });
  }
  for (const expr of asArray(obj['matchExpressions'])) {
    if (!isJsonObject(expr)) continue;
    const key = asString(expr['key']);
    const values = asArray(expr['values']).map((v) => asString(v));
    const op = asString(expr['operator']);
    if (op === 'In') out.push({ key, op: 'in', values });
    else if (op === 'NotIn') out.push({ key, op: 'notin', values });
    else if (op === 'Exists') out.push({ key, op: 'exists', values: [] });
    else if (op === 'DoesNotExist') out.push({ key, op: '!', values: [] });
  }
  return out;
}

/** The selector as labels.Selector.String() prints it: requirements sorted by key. */
export function formatLabelSelector(selector: LabelSelector): string {
  const parts = [...selector]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((req) => {
      switch (req.op) {
        case '=':
          return `${req.key}=${req.values[0] ?? ''}`;
        case '!=':
          return `${req.key}!=${req.values[0] ?? ''}`;
        case 'in':
        case 'notin':
          return `${req.key} ${req.op} (${[...req.values].sort().join(',')})`;
        case 'exists':
          return req.key;
        case '!':
          return `!${req.key}`;
        case 'gt':
          return `${req.key}>${req.values[0] ?? ''}`;
        case 'lt':
          return `${req.key}<${req.values[0] ?? ''}`;
      }
    });
  return parts.length === 0 ? '<none>' : parts.join(',');
}

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries(asRecord(labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return '<none>';
  return entries.map(([k, v]) => `${k}=${asString(v)}`).join(',');
}
