// `ipvsadm` on the node, printing with ipvsadm's own printf formats: -Ln (header + one line per
// virtual server and real server), --stats, -S (save), -C (clear). Without the ip_vs module it
// fails like the real one (exit 2, "Can't initialize ipvs: Protocol not available").

import { fail, nodeState, ok, type CommandContext, type CommandResult } from './types.js';
import { isIPv6 } from '../host/ip.js';
import { ipvsVirtualServers, type VirtualServer } from '../dataplane/ipvs.js';

const header = 'IP Virtual Server version 1.2.1 (size=4096)\n';
const noModule =
  "Can't initialize ipvs: Protocol not available\nAre you sure that IP Virtual Server is built in the kernel or as module?\n";

const hostPort = (ip: string, port: number): string =>
  isIPv6(ip) ? `[${ip}]:${port}` : `${ip}:${port}`;

/** `%9llu` for small numbers, as print_largenum prints counters below 100 million. */
const largeNum = (n: number): string => String(n).padStart(9);

function listText(services: readonly VirtualServer[]): string {
  const lines = [
    header.trimEnd(),
    'Prot LocalAddress:Port Scheduler Flags',
    '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
  ];
  for (const vs of services) {
    const persistent = vs.persistent === undefined ? '' : ` persistent ${vs.persistent}`;
    lines.push(`${vs.protocol}  ${hostPort(vs.address, vs.port)} ${vs.scheduler}${persistent}`);
    for (const d of vs.dests)
      lines.push(
        `  -> ${hostPort(d.address, d.port).padEnd(28)} ${'Masq'.padEnd(7)} ${String(d.weight).padEnd(6)} ${'0'.padEnd(10)} ${'0'.padEnd(10)}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

function statsText(services: readonly VirtualServer[]): string {
  const titles = ['Conns', 'InPkts', 'OutPkts', 'InBytes', 'OutBytes'].map((t) => t.padStart(8));
  const lines = [
    header.trimEnd(),
    `${'Prot LocalAddress:Port'.padEnd(33)} ${titles.join(' ')}`,
    '  -> RemoteAddress:Port',
  ];
  const zeros = largeNum(0).repeat(5);
  for (const vs of services) {
    lines.push(
      `${`${vs.protocol}  ${hostPort(vs.address, vs.port)}`.slice(0, 33).padEnd(33)}${zeros}`,
    );
    for (const d of vs.dests) lines.push(`  -> ${hostPort(d.address, d.port).padEnd(28)}${zeros}`);
  }
  return `${lines.join('\n')}\n`;
}

function saveText(services: readonly VirtualServer[]): string {
  const flag = { TCP: '-t', UDP: '-u', SCTP: '--sctp-service' } as const;
  return services
    .flatMap((vs) => {
      const svc = `${flag[vs.protocol]} ${hostPort(vs.address, vs.port)}`;
      const persistent = vs.persistent === undefined ? '' : ` -p ${vs.persistent}`;
      return [
        `-A ${svc} -s ${vs.scheduler}${persistent}`,
        ...vs.dests.map((d) => `-a ${svc} -r ${hostPort(d.address, d.port)} -m -w ${d.weight}`),
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
  const services = prog ? ipvsVirtualServers(prog) : [];
  if (flags.has('-C') || flags.has('--clear')) {
    ctx.apply({ dataplane: { ...state.dataplane, ipvs: undefined } });
    return ok('');
  }
  if (flags.has('-S') || flags.has('--save')) return ok(saveText(services));
  // Listing is ipvsadm's default command; -n only affects name resolution.
  return ok(flags.has('--stats') ? statsText(services) : listText(services));
}
