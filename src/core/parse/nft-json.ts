/**
 * `nft -j list table ip kube-proxy` / `nft -j list ruleset` (libnftables JSON, schema 1; facts §11):
 * `{"nftables": [{"metainfo": …}, {"table": …}, {"set": …}, {"map": …}, {"chain": …}, {"rule": …}]}`.
 * Verification reads kube-proxy's objects from it (facts §5: key on the table plus `services`,
 * `service-ips`, `cluster-ips`, not on base-chain names, which change between releases).
 */
import { isRecord, parseJson, parsed, unparsable, type Parsed } from './parsed.js';

export interface NftSet {
  name: string;
  type: string;
  /** Elements as text: `10.96.0.1`, `10.0.0.0/8` (prefix), `a-b` (range), `a . b` (concat). */
  elements: string[];
}

export interface NftMapElement {
  /** The key's parts: `['10.96.0.10', 'udp', '53']`. */
  key: string[];
  /** The value: `goto service-…`, `drop`, or a data value. */
  value: string;
}

export interface NftMap {
  name: string;
  type: string;
  elements: NftMapElement[];
}

export interface NftChain {
  name: string;
  /** Set on base chains only. */
  hook?: string;
  rules: number;
}

export interface NftTable {
  family: string;
  name: string;
  sets: Map<string, NftSet>;
  maps: Map<string, NftMap>;
  chains: Map<string, NftChain>;
}

export interface NftRuleset {
  /** The nft that printed it, from metainfo. */
  version?: string;
  tables: NftTable[];
}

/** nft's answer when the table (or chain, set, map) does not exist: exit 1 and this on stderr. */
export function nftObjectMissing(stderr: string): boolean {
  return /^Error: No such file or directory/m.test(stderr);
}

function atom(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(atom).join(' . ');
  if (!isRecord(value)) return '';
  if (isRecord(value['elem'])) return atom(value['elem']['val']);
  if (Array.isArray(value['concat'])) return value['concat'].map(atom).join(' . ');
  const prefix = value['prefix'];
  if (isRecord(prefix)) return `${atom(prefix['addr'])}/${atom(prefix['len'])}`;
  const range = value['range'];
  if (Array.isArray(range)) return range.map(atom).join('-');
  // A verdict: {"goto": {"target": "x"}} or {"drop": null}.
  const [verb, arg] = Object.entries(value)[0] ?? ['', null];
  return isRecord(arg) && typeof arg['target'] === 'string' ? `${verb} ${arg['target']}` : verb;
}

function keyParts(key: unknown): string[] {
  const inner = isRecord(key) && isRecord(key['elem']) ? key['elem']['val'] : key;
  if (isRecord(inner) && Array.isArray(inner['concat'])) return inner['concat'].map(atom);
  return [atom(inner)];
}

const typeText = (t: unknown): string => (Array.isArray(t) ? t.map(atom).join(' . ') : atom(t));
const elems = (o: Record<string, unknown>): unknown[] =>
  Array.isArray(o['elem']) ? o['elem'] : [];

function tableFor(tables: NftTable[], family: unknown, name: unknown): NftTable {
  const f = atom(family);
  const n = atom(name);
  let table = tables.find((t) => t.family === f && t.name === n);
  if (table === undefined) {
    table = { family: f, name: n, sets: new Map(), maps: new Map(), chains: new Map() };
    tables.push(table);
  }
  return table;
}

function addObject(tables: NftTable[], kind: string, o: Record<string, unknown>): void {
  if (kind === 'table') tableFor(tables, o['family'], o['name']);
  const table = (): NftTable => tableFor(tables, o['family'], o['table']);
  const name = atom(o['name']);
  if (kind === 'set') {
    table().sets.set(name, { name, type: typeText(o['type']), elements: elems(o).map(atom) });
  } else if (kind === 'map') {
    const elements = elems(o).map((e) => {
      const [key, value]: unknown[] = Array.isArray(e) ? (e as unknown[]) : [e, ''];
      return { key: keyParts(key), value: atom(value) };
    });
    table().maps.set(name, { name, type: `${typeText(o['type'])} : ${atom(o['map'])}`, elements });
  } else if (kind === 'chain') {
    const previous = table().chains.get(name);
    table().chains.set(name, {
      name,
      ...(typeof o['hook'] === 'string' ? { hook: o['hook'] } : {}),
      rules: previous?.rules ?? 0,
    });
  } else if (kind === 'rule') {
    const chain = atom(o['chain']);
    const existing = table().chains.get(chain) ?? { name: chain, rules: 0 };
    table().chains.set(chain, { ...existing, rules: existing.rules + 1 });
  }
}

/** Every table in the output, with its sets, maps (with elements) and chains (with rule counts). */
export function parseNftJson(text: string): Parsed<NftRuleset> {
  const json = parseJson(text, 'nft -j');
  if (!json.ok) return json;
  const list = isRecord(json.value) ? json.value['nftables'] : undefined;
  if (!Array.isArray(list)) return unparsable('nft -j: no "nftables" array');
  const tables: NftTable[] = [];
  let version: string | undefined;
  for (const item of list) {
    if (!isRecord(item)) continue;
    for (const [kind, body] of Object.entries(item)) {
      if (!isRecord(body)) continue;
      if (kind === 'metainfo') version = atom(body['version']) || undefined;
      else addObject(tables, kind, body);
    }
  }
  return parsed(version === undefined ? { tables } : { version, tables });
}

/** One table out of a listing: `table(ruleset, 'ip6', 'kube-proxy')`. */
export function findTable(ruleset: NftRuleset, family: string, name: string): NftTable | undefined {
  return ruleset.tables.find((t) => t.family === family && t.name === name);
}
