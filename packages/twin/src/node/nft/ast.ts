// A small nftables object model (tables, sets, maps, chains, rule statements) with both of nft's
// output forms per expression: the `nft list` text syntax and the libnftables JSON schema.

import type { JsonObject, JsonValue } from '../../apimachinery/types.js';

export type NftFamily = 'ip' | 'ip6';

export type Verdict =
  | { readonly kind: 'goto' | 'jump'; readonly target: string }
  | { readonly kind: 'drop' | 'accept' | 'return' };

export type Expr =
  | { readonly t: 'payload'; readonly proto: string; readonly field: string }
  | { readonly t: 'meta' | 'ct'; readonly key: string }
  | { readonly t: 'fib'; readonly flag: 'daddr' | 'saddr' }
  | { readonly t: 'numgen'; readonly mod: number }
  | { readonly t: 'concat'; readonly items: readonly Expr[] }
  | {
      readonly t: 'bitwise';
      readonly op: '&' | '|' | '^';
      readonly left: Expr;
      readonly mark: number;
    }
  | { readonly t: 'value'; readonly value: string | number }
  | { readonly t: 'mark'; readonly value: number }
  | { readonly t: 'prefix'; readonly addr: string; readonly len: number }
  | { readonly t: 'setref'; readonly name: string }
  | { readonly t: 'anonset'; readonly items: readonly Expr[] };

export type Stmt =
  | {
      readonly t: 'match';
      readonly op: '==' | '!=' | 'in';
      readonly left: Expr;
      readonly right: Expr;
    }
  | { readonly t: 'verdict'; readonly verdict: Verdict }
  | { readonly t: 'vmap'; readonly key: Expr; readonly map: string }
  | { readonly t: 'vmapInline'; readonly key: Expr; readonly entries: readonly Verdict[] }
  | { readonly t: 'mangle'; readonly key: Expr; readonly value: Expr }
  | { readonly t: 'masquerade' }
  | { readonly t: 'reject' }
  | { readonly t: 'dnat'; readonly addr: string; readonly port: number };

export interface NftRule {
  readonly stmts: readonly Stmt[];
  readonly comment?: string;
}

export interface NftChain {
  readonly name: string;
  readonly base?: { readonly type: 'filter' | 'nat'; readonly hook: string; readonly prio: number };
  readonly comment?: string;
  readonly rules: readonly NftRule[];
}

export interface NftSet {
  readonly name: string;
  readonly type: 'ipv4_addr' | 'ipv6_addr';
  readonly comment: string;
  readonly elements: readonly string[];
}

export interface NftMapElement {
  readonly key: readonly (string | number)[];
  readonly verdict: Verdict;
  readonly comment?: string;
}

export interface NftMap {
  readonly name: string;
  readonly keyTypes: readonly string[];
  readonly comment: string;
  readonly elements: readonly NftMapElement[];
}

export interface NftTable {
  readonly family: NftFamily;
  readonly name: string;
  readonly comment: string;
  readonly sets: readonly NftSet[];
  readonly maps: readonly NftMap[];
  readonly chains: readonly NftChain[];
}

const hex = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;

export function verdictText(v: Verdict): string {
  return v.kind === 'goto' || v.kind === 'jump' ? `${v.kind} ${v.target}` : v.kind;
}

export function verdictJson(v: Verdict): JsonObject {
  return v.kind === 'goto' || v.kind === 'jump'
    ? { [v.kind]: { target: v.target } }
    : { [v.kind]: null };
}

export function exprText(e: Expr): string {
  switch (e.t) {
    case 'payload':
      return `${e.proto} ${e.field}`;
    case 'meta':
    case 'ct':
      return `${e.t} ${e.key}`;
    case 'fib':
      return `fib ${e.flag} type`;
    case 'numgen':
      return `numgen random mod ${e.mod}`;
    case 'concat':
      return e.items.map(exprText).join(' . ');
    case 'bitwise':
      return `${exprText(e.left)} ${e.op} ${hex(e.mark)}`;
    case 'value':
      return String(e.value);
    case 'mark':
      return hex(e.value);
    case 'prefix':
      return `${e.addr}/${e.len}`;
    case 'setref':
      return `@${e.name}`;
    case 'anonset':
      return `{ ${e.items.map(exprText).join(', ')} }`;
  }
}

export function exprJson(e: Expr): JsonValue {
  switch (e.t) {
    case 'payload':
      return { payload: { protocol: e.proto, field: e.field } };
    case 'meta':
    case 'ct':
      return { [e.t]: { key: e.key } };
    case 'fib':
      return { fib: { result: 'type', flags: [e.flag] } };
    case 'numgen':
      return { numgen: { mode: 'random', mod: e.mod, offset: 0 } };
    case 'concat':
      return { concat: e.items.map(exprJson) };
    case 'bitwise':
      return { [e.op]: [exprJson(e.left), e.mark] };
    case 'value':
      return e.value;
    case 'mark':
      return e.value;
    case 'prefix':
      return { prefix: { addr: e.addr, len: e.len } };
    case 'setref':
      return `@${e.name}`;
    case 'anonset':
      return { set: e.items.map(exprJson) };
  }
}

/** nft omits `==` except after a bitwise expression, and prints `ct state new` for `in`. */
export function stmtText(s: Stmt): string {
  switch (s.t) {
    case 'match': {
      const op = s.op === '!=' ? ' != ' : s.left.t === 'bitwise' ? ' == ' : ' ';
      return `${exprText(s.left)}${op}${exprText(s.right)}`;
    }
    case 'verdict':
      return verdictText(s.verdict);
    case 'vmap':
      return `${exprText(s.key)} vmap @${s.map}`;
    case 'vmapInline':
      return `${exprText(s.key)} vmap { ${s.entries.map((v, i) => `${i} : ${verdictText(v)}`).join(', ')} }`;
    case 'mangle':
      return `${exprText(s.key)} set ${exprText(s.value)}`;
    case 'masquerade':
      return 'masquerade fully-random';
    case 'reject':
      return 'reject';
    case 'dnat':
      return `dnat to ${s.addr.includes(':') ? `[${s.addr}]` : s.addr}:${s.port}`;
  }
}

export function stmtJson(s: Stmt): JsonObject {
  switch (s.t) {
    case 'match':
      return { match: { op: s.op, left: exprJson(s.left), right: exprJson(s.right) } };
    case 'verdict':
      return verdictJson(s.verdict);
    case 'vmap':
      return { vmap: { key: exprJson(s.key), data: `@${s.map}` } };
    case 'vmapInline':
      return {
        vmap: { key: exprJson(s.key), data: { set: s.entries.map((v, i) => [i, verdictJson(v)]) } },
      };
    case 'mangle':
      return { mangle: { key: exprJson(s.key), value: exprJson(s.value) } };
    case 'masquerade':
      return { masquerade: { flags: 'fully-random' } };
    case 'reject':
      return { reject: null };
    case 'dnat':
      return { dnat: { addr: s.addr, port: s.port } };
  }
}
