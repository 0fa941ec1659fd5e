// `ipvsadm` on the node, printing with ipvsadm 1.31's own printf formats (ipvsadm.c print_title,
// print_service_entry, print_largenum): -L/-l (the default command) with --stats, --rate and -n,
// -S (save, `-A -t VIP:PORT -s rr` / `-a -t … -r RIP:PORT -m -w 1`), -C (clear). Without -n ports
// go through /etc/services (a Debian netbase subset) and addresses stay numeric (no reverse DNS
// on a node). Counters and rates are zero. Without the ip_vs module it fails like the real one.

import { fail, nodeState, ok, type CommandContext, type CommandResult } from './types.js';
import { isIPv6 } from '../host/ip.js';
import { ipvsVirtualServers, type VirtualServer } from '../dataplane/ipvs.js';
import type { Protocol } from '../dataplane/catalog.js';

const header = 'IP Virtual Server version 1.2.1 (size=4096)\n';
const noModule =
  "Can't initialize ipvs: Protocol not available\nAre you sure that IP Virtual Server is built in the kernel or as module?\n";

/** getservbyport(3) over Debian's /etc/services, for the ports clusters commonly use. */
const services: Readonly<Record<string, string>> = {
  'TCP/22': 'ssh',
  'TCP/53': 'domain',
  'UDP/53': 'domain',
  'TCP/80': 'http',
  'UDP/123': 'ntp',
  'TCP/443': 'https',
  'TCP/3306': 'mysql',
  'TCP/5432': 'postgresql',
  'TCP/8080': 'http-alt',
};

interface Format {
  numeric: boolean;
}

/** addrport_to_anyname: `[v6]:port`, the port named unless -n. */
function addrPort(ip: string, port: number, protocol: Protocol, f: Format): string {
  const p = f.numeric ? String(port) : (services[`${protocol}/${port}`] ?? String(port));
  return isIPv6(ip) ? `[${ip}]:${p}` : `${ip}:${p}`;
}

/** print_largenum: `%9llu` below 100 million (everything here is zero). */
const largeNum = (n: number): string => String(n).padStart(9);
const zeros = largeNum(0).repeat(5);

function title(kind: 'list' | 'stats' | 'rate'): string {
  if (kind === 'list')
    return 'Prot LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n';
  const cols =
    kind === 'stats'
      ? ['Conns', 'InPkts', 'OutPkts', 'InBytes', 'OutBytes']
      : ['CPS', 'InPPS', 'OutPPS', 'InBPS', 'OutBPS'];
  return `${'Prot LocalAddress:Port'.padEnd(33)} ${cols.map((t) => t.padStart(8)).join(' ')}\n  -> RemoteAddress:Port\n`;
}

function listText(
  vss: readonly VirtualServer[],
  kind: 'list' | 'stats' | 'rate',
  f: Format,
): string {
  const lines: string[] = [];
  for (const vs of vss) {
    // svc_name is cut at 33 characters for IPv4, dname at 28.
    const svc = `${vs.protocol}  ${addrPort(vs.address, vs.port, vs.protocol, f)}`;
    const name = isIPv6(vs.address) ? svc : svc.slice(0, 33);
    if (kind === 'list') {
      const persistent = vs.persistent === undefined ? '' : ` persistent ${vs.persistent}`;
      lines.push(`${name} ${vs.scheduler}${persistent}`);
    } else lines.push(`${name.padEnd(33)}${zeros}`);
    for (const d of vs.dests) {
      const full = addrPort(d.address, d.port, vs.protocol, f);
      const dest = (isIPv6(d.address) ? full : full.slice(0, 28)).padEnd(28);
      if (kind === 'list')
        lines.push(
          `  -> ${dest} ${'Masq'.padEnd(7)} ${String(d.weight).padEnd(6)} ${'0'.padEnd(10)} ${'0'.padEnd(10)}`,
        );
      else if (kind === 'stats') lines.push(`  -> ${dest}${zeros}`);
      else
        lines.push(
          `  -> ${dest} ${'0'.padStart(8)} ${'0'.padStart(8)} ${'0'.padStart(8)}${largeNum(0).repeat(2)}`,
        );
    }
  }
  return header + title(kind) + lines.map((l) => `${l}\n`).join('');
}

function saveText(vss: readonly VirtualServer[], f: Format): string {
  const flag = { TCP: '-t', UDP: '-u', SCTP: '--sctp-service' } as const;
  return vss
    .flatMap((vs) => {
      const svc = `${flag[vs.protocol]} ${addrPort(vs.address, vs.port, vs.protocol, f)}`;
      const persistent = vs.persistent === undefined ? '' : ` -p ${vs.persistent}`;
      return [
        `-A ${svc} -s ${vs.scheduler}${persistent}`,
        ...vs.dests.map(
          (d) => `-a ${svc} -r ${addrPort(d.address, d.port, vs.protocol, f)} -m -w ${d.weight}`,
        ),
      ];
    })
    .map((l) => `${l}\n`)
    .join('');
}

export function runIpvsadm(ctx: CommandContext, args: readonly string[]): CommandResult {
  const state = nodeState(ctx);
  if (!state.dataplane.ipvsModuleLoaded) return fail(2, noModule);
  const flags = new Set<string>();
  for (const a of args) {
    if (a.startsWith('--')) flags.add(a);
    else if (a.startsWith('-')) for (const c of a.slice(1)) flags.add(`-${c}`);
  }
  const prog = state.dataplane.ipvs;
  const vss = prog ? ipvsVirtualServers(prog) : [];
  const f: Format = { numeric: flags.has('-n') || flags.has('--numeric') };
  if (flags.has('-C') || flags.has('--clear')) {
    ctx.apply({ dataplane: { ...state.dataplane, ipvs: undefined } });
    return ok('');
  }
  if (flags.has('-S') || flags.has('--save')) return ok(saveText(vss, f));
  // Listing is ipvsadm's default command.
  const kind = flags.has('--stats') ? 'stats' : flags.has('--rate') ? 'rate' : 'list';
  return ok(listText(vss, kind, f));
}
