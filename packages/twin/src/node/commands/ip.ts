// `ip` (iproute2) on the node: `link show [dev] NAME [up]`, `addr show [dev] NAME [up]` in text or
// JSON (-j, -p, -4/-6), and `link del kube-ipvs0`. `up` keeps the interfaces whose flags hold UP
// (iproute2's filter.up tests IFF_UP), so not kube-ipvs0, which kube-proxy never sets up. A missing device prints
// `Device "kube-ipvs0" does not exist.` on stderr with exit 1 and nothing on stdout.

import type { JsonObject } from '../../apimachinery/types.js';
import { fail, nodeState, ok, type CommandContext, type CommandResult } from './types.js';
import {
  ipvsDevice,
  nodeInterfaces,
  type Interface,
  type InterfaceAddress,
} from '../host/interfaces.js';

const forever = 4294967295;

function linkJson(i: Interface, withMode: boolean): JsonObject {
  const o: JsonObject = {
    ifindex: i.ifindex,
    ifname: i.ifname,
    flags: [...i.flags],
    mtu: i.mtu,
    qdisc: i.qdisc,
    operstate: i.operstate,
  };
  if (withMode) o['linkmode'] = 'DEFAULT';
  Object.assign(o, {
    group: 'default',
    txqlen: 1000,
    link_type: i.linkType,
    address: i.address,
    broadcast: i.broadcast,
  });
  return o;
}

function addrJson(i: Interface, a: InterfaceAddress): JsonObject {
  const o: JsonObject = { family: a.family, local: a.local, prefixlen: a.prefixlen };
  if (a.broadcast !== undefined) o['broadcast'] = a.broadcast;
  o['scope'] = a.scope;
  if (a.family === 'inet') o['label'] = i.ifname;
  return { ...o, valid_life_time: forever, preferred_life_time: forever };
}

function linkLine(i: Interface, withMode: boolean): string {
  const mode = withMode ? ' mode DEFAULT' : '';
  return `${i.ifindex}: ${i.ifname}: <${i.flags.join(',')}> mtu ${i.mtu} qdisc ${i.qdisc} state ${i.operstate}${mode} group default qlen 1000\n    link/${i.linkType} ${i.address} brd ${i.broadcast}\n`;
}

function addrLines(i: Interface, a: InterfaceAddress): string {
  const brd = a.broadcast === undefined ? '' : ` brd ${a.broadcast}`;
  const label = a.family === 'inet' ? ` ${i.ifname}` : ' ';
  return `    ${a.family} ${a.local}/${a.prefixlen}${brd} scope ${a.scope}${label}\n       valid_lft forever preferred_lft forever\n`;
}

interface IpOptions {
  json: boolean;
  pretty: boolean;
  family: 'inet' | 'inet6' | undefined;
}

function output(o: IpOptions, value: JsonObject[]): string {
  return `${o.pretty ? JSON.stringify(value, null, 4) : JSON.stringify(value)}\n`;
}

export function runIp(ctx: CommandContext, args: readonly string[]): CommandResult {
  const o: IpOptions = { json: false, pretty: false, family: undefined };
  const words: string[] = [];
  for (const a of args) {
    if (a === '-j' || a === '-json' || a === '--json') o.json = true;
    else if (a === '-p' || a === '-pretty') o.pretty = true;
    else if (a === '-4') o.family = 'inet';
    else if (a === '-6') o.family = 'inet6';
    else if (/^-[jp]+$/.test(a)) {
      o.json = true;
      o.pretty = a.includes('p');
    } else if (!a.startsWith('-')) words.push(a);
  }
  const [object = '', verb = 'show', ...selectors] = words;
  const up = selectors.includes('up');
  const rest = selectors.filter((w) => w !== 'up');
  const name = rest[0] === 'dev' ? rest[1] : rest[0];
  const state = nodeState(ctx);
  const all = nodeInterfaces(state);
  const selected = (name === undefined ? all : all.filter((i) => i.ifname === name)).filter(
    (i) => !up || i.flags.includes('UP'),
  );
  const isLink = 'link'.startsWith(object) && object !== '';
  const isAddr = ['a', 'ad', 'add', 'addr', 'addre', 'addres', 'address'].includes(object);
  if (!isLink && !isAddr) return fail(255, `Object "${object}" is unknown, try "ip help".\n`);
  if (isLink && ['del', 'delete'].includes(verb)) {
    if (name !== ipvsDevice || !state.dataplane.ipvsDummy)
      return fail(1, `Cannot find device "${name ?? ''}"\n`);
    ctx.apply({ dataplane: { ...state.dataplane, ipvsDummy: undefined } });
    return ok('');
  }
  if (!['show', 'list', 'ls', 'sh', 'l', 's'].includes(verb))
    return fail(255, `Command "${verb}" is unknown, try "ip ${object} help".\n`);
  if (name !== undefined && !all.some((i) => i.ifname === name))
    return fail(1, `Device "${name}" does not exist.\n`);
  if (isLink)
    return ok(
      o.json
        ? output(
            o,
            selected.map((i) => linkJson(i, true)),
          )
        : selected.map((i) => linkLine(i, true)).join(''),
    );
  const withAddrs = selected.map((i) => ({
    i,
    addrs: i.addrs.filter((a) => o.family === undefined || a.family === o.family),
  }));
  if (o.json)
    return ok(
      output(
        o,
        withAddrs.map(({ i, addrs }) => ({
          ...linkJson(i, false),
          addr_info: addrs.map((a) => addrJson(i, a)),
        })),
      ),
    );
  return ok(
    withAddrs
      .filter(({ addrs }) => o.family === undefined || addrs.length > 0)
      .map(({ i, addrs }) => linkLine(i, false) + addrs.map((a) => addrLines(i, a)).join(''))
      .join(''),
  );
}
