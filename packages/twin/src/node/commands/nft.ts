// `nft` on the node: --version/-V, `list ruleset|tables|table|chain|set|map` in text or JSON
// (-j, -t for --terse), and `delete table` for manual cleanup. A missing object fails like nft:
// exit 1, `Error: No such file or directory`, the command, and a caret line under the name.

import { fail, nodeState, ok, type CommandContext, type CommandResult } from './types.js';
import type { NftFamily, NftTable } from '../nft/ast.js';
import { janssonDump, metainfo, tableJson, tableText } from '../nft/render.js';
import { buildNftTable } from '../nft/table.js';
import { nftVersionLine } from '../versions.js';

const families: readonly NftFamily[] = ['ip', 'ip6'];

function tables(ctx: CommandContext): NftTable[] {
  const prog = nodeState(ctx).dataplane.nft;
  return prog ? families.map((f) => buildNftTable(prog, f)) : [];
}

function notFound(words: readonly string[], index: number): CommandResult {
  const line = words.join(' ');
  const start = words.slice(0, index).join(' ').length + (index > 0 ? 1 : 0);
  const len = (words[index] ?? '').length;
  return fail(
    1,
    `Error: No such file or directory\n${line}\n${' '.repeat(start)}${'^'.repeat(len)}\n`,
  );
}

function syntaxError(words: readonly string[]): CommandResult {
  const line = words.join(' ');
  return fail(
    1,
    `Error: syntax error, unexpected end of file\n${line}\n${' '.repeat(line.length)}^\n`,
  );
}

interface Options {
  json: boolean;
  terse: boolean;
}

function render(ctx: CommandContext, selected: NftTable[], o: Options): string {
  const nft = nodeState(ctx).facts.nft;
  if (o.json) {
    const objects = selected.flatMap((t) => tableJson(t, t.family === 'ip' ? 1 : 2, o.terse));
    return `${janssonDump({ nftables: [metainfo(nft), ...objects] })}\n`;
  }
  return selected.map((t) => tableText(t, o.terse)).join('');
}

/** `list table [family] name` style addressing: family defaults to ip. */
function address(
  words: readonly string[],
  at: number,
): { family: string; name: string; next: number } {
  const a = words[at] ?? '';
  const isFamily = ['ip', 'ip6', 'inet', 'arp', 'bridge', 'netdev'].includes(a);
  return isFamily
    ? { family: a, name: words[at + 1] ?? '', next: at + 2 }
    : { family: 'ip', name: a, next: at + 1 };
}

function list(ctx: CommandContext, words: readonly string[], o: Options): CommandResult {
  const what = words[1];
  const all = tables(ctx);
  if (what === 'ruleset') return ok(render(ctx, all, o));
  if (what === 'tables') {
    if (o.json) {
      const heads = all.map((t) => tableJson(t, t.family === 'ip' ? 1 : 2)[0] ?? {});
      return ok(`${janssonDump({ nftables: [metainfo(nodeState(ctx).facts.nft), ...heads] })}\n`);
    }
    return ok(all.map((t) => `table ${t.family} ${t.name}\n`).join(''));
  }
  if (what !== 'table' && what !== 'chain' && what !== 'set' && what !== 'map')
    return syntaxError(words);
  const at = address(words, 2);
  const table = all.find((t) => t.family === at.family && t.name === at.name);
  if (at.name === '') return syntaxError(words);
  if (!table) return notFound(words, at.next - 1);
  if (what === 'table') return ok(render(ctx, [table], o));
  const name = words[at.next] ?? '';
  if (name === '') return syntaxError(words);
  const narrowed: NftTable = {
    ...table,
    sets: what === 'set' ? table.sets.filter((s) => s.name === name) : [],
    maps: what === 'map' ? table.maps.filter((m) => m.name === name) : [],
    chains: what === 'chain' ? table.chains.filter((c) => c.name === name) : [],
  };
  if (narrowed.sets.length + narrowed.maps.length + narrowed.chains.length === 0)
    return notFound(words, at.next);
  if (o.json) {
    const objects = tableJson(narrowed, 0, o.terse).slice(1);
    return ok(`${janssonDump({ nftables: [metainfo(nodeState(ctx).facts.nft), ...objects] })}\n`);
  }
  return ok(tableText(narrowed, o.terse, false));
}

function deleteTable(ctx: CommandContext, words: readonly string[]): CommandResult {
  const at = address(words, 2);
  const state = nodeState(ctx);
  if (words[0] === 'flush' && words[1] === 'ruleset') {
    ctx.apply({ dataplane: { ...state.dataplane, nft: undefined } });
    return ok('');
  }
  if (words[0] !== 'delete' || words[1] !== 'table' || at.name === '') return syntaxError(words);
  if (!state.dataplane.nft || at.name !== 'kube-proxy' || !['ip', 'ip6'].includes(at.family))
    return notFound(words, at.next - 1);
  // The twin keeps both families in one program: deleting either removes kube-proxy's tables.
  ctx.apply({ dataplane: { ...state.dataplane, nft: undefined } });
  return ok('');
}

export function runNft(ctx: CommandContext, args: readonly string[]): CommandResult {
  const o: Options = { json: false, terse: false };
  const words: string[] = [];
  for (const a of args) {
    if (a === '-v' || a === '--version') return ok(`${nftVersionLine(nodeState(ctx).facts.nft)}\n`);
    if (a === '-V')
      return ok(
        `${nftVersionLine(nodeState(ctx).facts.nft)}\n  cli:\t\teditline\n  json:\t\tyes\n  minigmp:\tno\n  libxtables:\tyes\n`,
      );
    if (a === '-j' || a === '--json') o.json = true;
    else if (a === '-t' || a === '--terse') o.terse = true;
    else if (/^-[a-zA-Z]+$/.test(a) && a.includes('j')) o.json = true;
    else if (!a.startsWith('-')) words.push(...a.split(/\s+/).filter((w) => w !== ''));
  }
  if (words[0] === 'list') return list(ctx, words, o);
  if (words[0] === 'delete' || words[0] === 'flush') return deleteTable(ctx, words);
  return words.length === 0 ? fail(1, 'Error: no command specified\n') : syntaxError(words);
}
