// Prints nftables tables exactly as `nft list` (text) and `nft -j list` (libnftables JSON,
// jansson's `", "`/`": "` separators on one line) do, with handles numbered in object order.

import type { JsonObject, JsonValue } from '../../apimachinery/types.js';
import type { NftChain, NftMap, NftMapElement, NftSet, NftTable } from './ast.js';
import { stmtJson, stmtText, verdictJson, verdictText } from './ast.js';
import { nftReleaseName } from '../versions.js';

/** Standard priority names, compatible hooks, and nft's ±10 naming window. */
const stdPrios: readonly [string, number, readonly string[] | undefined][] = [
  ['raw', -300, undefined],
  ['mangle', -150, undefined],
  ['dstnat', -100, ['prerouting', 'output']],
  ['filter', 0, undefined],
  ['security', 50, undefined],
  ['srcnat', 100, ['postrouting', 'input']],
];

export function priorityText(prio: number, hook: string): string {
  for (const [name, value, hooks] of stdPrios) {
    if (Math.abs(prio - value) > 10 || (hooks && !hooks.includes(hook))) continue;
    const off = prio - value;
    return off === 0 ? name : `${name} ${off > 0 ? '+' : '-'} ${Math.abs(off)}`;
  }
  return String(prio);
}

/** jansson's default output: compact but with a space after `,` and `:`. */
export function janssonDump(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(janssonDump).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${janssonDump(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

function keyText(e: NftMapElement): string {
  const key = e.key.join(' . ');
  return e.comment === undefined ? key : `${key} comment ${JSON.stringify(e.comment)}`;
}

/** nft's calculate_delim: 4 IPv4 addresses per line, one element per line otherwise. */
function elementsText(items: readonly string[], perLine: number): string {
  const parts = items.map((item, i) => {
    if (i === 0) return item;
    return i % perLine === 0 ? `,\n\t\t\t     ${item}` : `, ${item}`;
  });
  return `\t\telements = { ${parts.join('')} }\n`;
}

function setText(s: NftSet, terse: boolean): string {
  const elems =
    terse || s.elements.length === 0
      ? ''
      : elementsText(s.elements, s.type === 'ipv4_addr' ? 4 : 1);
  return `\tset ${s.name} {\n\t\ttype ${s.type}\n\t\tcomment ${JSON.stringify(s.comment)}\n${elems}\t}\n`;
}

function mapText(m: NftMap, terse: boolean): string {
  const elems =
    terse || m.elements.length === 0
      ? ''
      : elementsText(
          m.elements.map((e) => `${keyText(e)} : ${verdictText(e.verdict)}`),
          1,
        );
  return `\tmap ${m.name} {\n\t\ttype ${m.keyTypes.join(' . ')} : verdict\n\t\tcomment ${JSON.stringify(m.comment)}\n${elems}\t}\n`;
}

function chainText(c: NftChain): string {
  const lines: string[] = [];
  if (c.base)
    lines.push(
      `type ${c.base.type} hook ${c.base.hook} priority ${priorityText(c.base.prio, c.base.hook)}; policy accept;`,
    );
  if (c.comment !== undefined) lines.push(`comment ${JSON.stringify(c.comment)}`);
  for (const r of c.rules) {
    const text = r.stmts.map(stmtText).join(' ');
    lines.push(r.comment === undefined ? text : `${text} comment ${JSON.stringify(r.comment)}`);
  }
  return `\tchain ${c.name} {\n${lines.map((l) => `\t\t${l}\n`).join('')}\t}\n`;
}

export function tableText(t: NftTable, terse = false, withComment = true): string {
  const blocks = [
    ...t.sets.map((s) => setText(s, terse)),
    ...t.maps.map((m) => mapText(m, terse)),
    ...t.chains.map(chainText),
  ];
  const comment = withComment ? `\tcomment ${JSON.stringify(t.comment)}\n` : '';
  return `table ${t.family} ${t.name} {\n${comment}${blocks.join('\n')}}\n`;
}

export function metainfo(nftVersion: string): JsonObject {
  return {
    metainfo: {
      version: nftVersion,
      release_name: nftReleaseName(nftVersion),
      json_schema_version: 1,
    },
  };
}

function mapKeyJson(e: NftMapElement): JsonValue {
  const val: JsonValue = e.key.length === 1 ? (e.key[0] ?? '') : { concat: [...e.key] };
  return e.comment === undefined ? val : { elem: { val, comment: e.comment } };
}

/** The objects of one table, grouped as nft lists them: table, sets, maps, chains, rules. */
export function tableJson(t: NftTable, tableHandle: number, terse = false): JsonObject[] {
  let handle = 0;
  const next = (): number => (handle += 1);
  const common = { family: t.family, table: t.name };
  const out: JsonObject[] = [{ table: { family: t.family, name: t.name, handle: tableHandle } }];
  for (const s of t.sets) {
    const set: JsonObject = {
      family: t.family,
      name: s.name,
      table: t.name,
      type: s.type,
      handle: next(),
      comment: s.comment,
    };
    if (!terse && s.elements.length > 0) set['elem'] = [...s.elements];
    out.push({ set });
  }
  for (const m of t.maps) {
    const map: JsonObject = {
      family: t.family,
      name: m.name,
      table: t.name,
      type: [...m.keyTypes],
      handle: next(),
      map: 'verdict',
      comment: m.comment,
    };
    if (!terse && m.elements.length > 0)
      map['elem'] = m.elements.map((e) => [mapKeyJson(e), verdictJson(e.verdict)]);
    out.push({ map });
  }
  for (const c of t.chains) {
    const chain: JsonObject = { ...common, name: c.name, handle: next() };
    if (c.base)
      Object.assign(chain, {
        type: c.base.type,
        hook: c.base.hook,
        prio: c.base.prio,
        policy: 'accept',
      });
    out.push({ chain });
  }
  for (const c of t.chains)
    for (const r of c.rules) {
      const rule: JsonObject = { ...common, chain: c.name, handle: next() };
      if (r.comment !== undefined) rule['comment'] = r.comment;
      rule['expr'] = r.stmts.map(stmtJson);
      out.push({ rule });
    }
  return out;
}
