// `iptables-save` / `ip6tables-save` ([-t table] [-c]) and `iptables` / `ip6tables`
// ([-t table] -S [chain]) on the node, iptables 1.8.9 with the nf_tables backend: kubelet's
// chains and what IPVS mode left (`node/iptables/`). Other iptables commands are not answered:
// they print iptables' "no command specified" usage error.

import { nodeState, ok, fail, type CommandContext, type CommandResult } from './types.js';
import { iptablesTables, type TableName } from '../iptables/tables.js';
import { iptablesVersion, listRulesText, saveText } from '../iptables/save.js';

const tableNames: readonly string[] = ['filter', 'nat', 'mangle', 'raw', 'security'];

function tableArg(args: readonly string[]): { table: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let table: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? '';
    if (a === '-t' || a === '--table') table = args[(i += 1)] ?? '';
    else if (a.startsWith('--table=')) table = a.slice('--table='.length);
    else if (/^-t\S/.test(a)) table = a.slice(2);
    else rest.push(a);
  }
  return { table, rest };
}

export function runIptablesSave(
  ctx: CommandContext,
  args: readonly string[],
  program: 'iptables-save' | 'ip6tables-save',
): CommandResult {
  const { table, rest } = tableArg(args);
  const all = iptablesTables(
    nodeState(ctx).dataplane,
    program === 'ip6tables-save' ? 'IPv6' : 'IPv4',
  );
  const picked = table === undefined ? all : all.filter((t) => t.name === table);
  if (table !== undefined && picked.length === 0)
    return fail(1, `${program} ${iptablesVersion}: table '${table}' does not exist\n`);
  const counters = rest.includes('-c') || rest.includes('--counters');
  return ok(saveText(picked, ctx.now, { program, counters }));
}

export function runIptables(
  ctx: CommandContext,
  args: readonly string[],
  program: 'iptables' | 'ip6tables',
): CommandResult {
  const { table = 'filter', rest } = tableArg(args);
  const list = rest.findIndex((a) => a === '-S' || a === '--list-rules');
  const usage = `${program} ${iptablesVersion}: no command specified\nTry \`${program} -h' or '${program} --help' for more information.\n`;
  if (list < 0) return fail(2, usage);
  if (!tableNames.includes(table))
    return fail(
      3,
      `${program} ${iptablesVersion}: can't initialize ${program} table \`${table}': Table does not exist (do you need to insmod?)\nPerhaps ${program} or your kernel needs to be upgraded.\n`,
    );
  const family = program === 'ip6tables' ? 'IPv6' : 'IPv4';
  const t = iptablesTables(nodeState(ctx).dataplane, family).find(
    (x) => x.name === (table as TableName),
  );
  const chain = rest[list + 1]?.startsWith('-') === false ? rest[list + 1] : undefined;
  const text = t ? listRulesText(t, chain) : chain === undefined ? '' : undefined;
  if (text === undefined) return fail(1, `${program}: No chain/target/match by that name.\n`);
  return ok(text);
}
