// `ipset` on the node (ipset v7.17, as Debian 12 ships it): `list -n` (set names, one a line) and
// `save [SET]` (`create …` then `add …` lines), over the sets IPVS mode created
// (`node/iptables/ipsets.ts`). The kernel lists sets in creation order; kube-proxy creates them
// from a Go map, so the twin fixes ipsetInfo's order, the IPv4 proxier's first. initval, random
// per set in the kernel, is a hash of node and set name. Other subcommands are not answered.

import { fail, nodeState, ok, type CommandContext, type CommandResult } from './types.js';
import { ipvsIpsets, type IpSet } from '../iptables/ipsets.js';

const version = 'ipset v7.17, protocol version: 7\n';

function sets(ctx: CommandContext): IpSet[] {
  const program = nodeState(ctx).dataplane.ipsets;
  return program ? [...ipvsIpsets(program, 'IPv4'), ...ipvsIpsets(program, 'IPv6')] : [];
}

/** FNV-1a: a stable stand-in for the kernel's random hash initval. */
function initval(node: string, set: string): string {
  let h = 0x811c9dc5;
  for (const c of `${node}/${set}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return `0x${h.toString(16).padStart(8, '0')}`;
}

function createLine(ctx: CommandContext, s: IpSet): string {
  if (s.type === 'bitmap:port') return `create ${s.name} ${s.type} range 0-65535 comment`;
  const family = s.name.startsWith('KUBE-6-') ? 'inet6' : 'inet';
  return `create ${s.name} ${s.type} family ${family} hashsize 1024 maxelem 65536 comment bucketsize 12 initval ${initval(ctx.nodeName, s.name)}`;
}

export function runIpset(ctx: CommandContext, args: readonly string[]): CommandResult {
  const words: string[] = [];
  const flags: string[] = [];
  let output: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? '';
    if (a === '-o' || a === '-output') output = args[(i += 1)];
    else if (a.startsWith('-')) flags.push(a);
    else words.push(a);
  }
  if (flags.includes('-v') || flags.includes('--version') || words[0] === 'version')
    return ok(version);
  const all = sets(ctx);
  const [command = '', name] = words;
  const picked = name === undefined ? all : all.filter((s) => s.name === name);
  if (name !== undefined && picked.length === 0)
    return fail(1, 'ipset v7.17: The set with the given name does not exist\n');
  const list = command === 'list' || command === 'l';
  if (list && flags.some((f) => f === '-n' || f === '-name'))
    return ok(picked.map((s) => `${s.name}\n`).join(''));
  if (command === 'save' || command === 's' || (list && output === 'save'))
    return ok(
      picked
        .flatMap((s) => [createLine(ctx, s), ...s.entries.map((e) => `add ${s.name} ${e}`)])
        .map((l) => `${l}\n`)
        .join(''),
    );
  return fail(
    1,
    `ipset v7.17: No command specified: unknown argument ${command}\nTry \`ipset help' for more information.\n`,
  );
}
