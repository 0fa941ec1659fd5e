// A JSON reader that keeps every member of an object in order, duplicates included, so strict
// decoding can report `duplicate field` as sigs.k8s.io/json does. JSON.parse checks the syntax
// first; this runs only on text that parsed.

import type { JsonPrimitive } from './types.js';

export type RawNode =
  | { readonly t: 'object'; readonly entries: readonly (readonly [string, RawNode])[] }
  | { readonly t: 'array'; readonly items: readonly RawNode[] }
  | { readonly t: 'value'; readonly v: JsonPrimitive };

const ws = new Set([' ', '\t', '\n', '\r']);

export function scanJson(text: string): RawNode {
  let i = 0;
  const skip = (): void => {
    while (i < text.length && ws.has(text[i] ?? '')) i += 1;
  };
  const str = (): string => {
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i += 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): RawNode => {
    skip();
    const c = text[i];
    if (c === '{') {
      i += 1;
      const entries: [string, RawNode][] = [];
      skip();
      if (text[i] === '}') {
        i += 1;
        return { t: 'object', entries };
      }
      for (;;) {
        skip();
        const key = str();
        skip();
        i += 1; // ':'
        entries.push([key, value()]);
        skip();
        if (text[i++] === '}') return { t: 'object', entries };
      }
    }
    if (c === '[') {
      i += 1;
      const items: RawNode[] = [];
      skip();
      if (text[i] === ']') {
        i += 1;
        return { t: 'array', items };
      }
      for (;;) {
        items.push(value());
        skip();
        if (text[i++] === ']') return { t: 'array', items };
      }
    }
    if (c === '"') return { t: 'value', v: str() };
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    const token = m?.[0] ?? '';
    i += token.length;
    return { t: 'value', v: JSON.parse(token) as JsonPrimitive };
  };
  return value();
}
