/**
 * `ipvsadm -Ln` (facts §11; ipvsadm's print_service_entry/print_title): a three-line header, then
 * per virtual server `TCP  10.96.0.1:443 rr [persistent N] [ops]` and its real servers
 * `  -> 10.0.0.10:6443  Masq  1  0  0`. An empty table is exactly the header. Verification reads
 * it twice: after a cutover nothing may be left, after a rollback every Service must be back.
 */
import { splitHostPort } from '../ip.js';
import { parsed, unparsable, type Parsed } from './parsed.js';

export const ipvsProtocols = ['TCP', 'UDP', 'SCTP', 'FWM'] as const;
export type IpvsProtocol = (typeof ipvsProtocols)[number];

export interface IpvsRealServer {
  address: string;
  port: number;
  /** `Masq`, `Route`, `Tunnel` or `Local`. */
  forward: string;
  weight: number;
  activeConn?: number;
  inActConn?: number;
}

export interface IpvsVirtualServer {
  protocol: IpvsProtocol;
  /** The address, or the firewall mark for FWM services. */
  address: string;
  /** 0 for FWM services. */
  port: number;
  scheduler: string;
  /** What follows the scheduler: `persistent 10800`, `ops`, `(flag-1)`. */
  flags: string[];
  realServers: IpvsRealServer[];
}

export interface IpvsTable {
  /** `1.2.1` from `IP Virtual Server version 1.2.1 (size=4096)`; absent in save output. */
  version?: string;
  virtualServers: IpvsVirtualServer[];
}

/** ipvsadm without the ip_vs module: exit 2 and this on stderr (observed, facts §11). */
export function ipvsModuleMissing(stderr: string): boolean {
  return /Can't initialize ipvs|Protocol not available|IP Virtual Server is built in the kernel/.test(
    stderr,
  );
}

const HEADER = /^IP Virtual Server version (\S+)/;
const SERVICE = /^(TCP|UDP|SCTP|FWM)\s+(\S+)\s+(\S+)\s*(.*)$/;
const REAL = /^\s+->\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$/;

/** `10.96.0.1:443` → address and port; FWM services carry a mark and no port. */
export function ipvsAddress(
  protocol: IpvsProtocol,
  text: string,
): { address: string; port: number } | undefined {
  if (protocol === 'FWM') return /^\d+$/.test(text) ? { address: text, port: 0 } : undefined;
  const hp = splitHostPort(text);
  return hp === undefined ? undefined : { address: hp.host, port: hp.port };
}

export function parseIpvsadmList(text: string): Parsed<IpvsTable> {
  const lines = text.split('\n');
  const header = lines.map((l) => HEADER.exec(l)).find((m) => m !== null);
  if (header === undefined) return unparsable('ipvsadm -Ln: no "IP Virtual Server version" header');
  const virtualServers: IpvsVirtualServer[] = [];
  for (const [i, line] of lines.entries()) {
    const service = SERVICE.exec(line);
    if (service !== null) {
      const protocol = service[1] as IpvsProtocol;
      const at = ipvsAddress(protocol, service[2] ?? '');
      if (at === undefined) return unparsable(`ipvsadm -Ln line ${i + 1}: bad address "${line}"`);
      const flags = (service[4] ?? '').trim();
      virtualServers.push({
        protocol,
        ...at,
        scheduler: service[3] ?? '',
        flags: flags === '' ? [] : flags.split(/\s+(?=[a-z(])/),
        realServers: [],
      });
      continue;
    }
    const real = REAL.exec(line);
    if (real === null) continue;
    const hp = splitHostPort(real[1] ?? '');
    const owner = virtualServers[virtualServers.length - 1];
    if (hp === undefined || owner === undefined) continue;
    owner.realServers.push({
      address: hp.host,
      port: hp.port,
      forward: real[2] ?? '',
      weight: Number(real[3]),
      activeConn: Number(real[4]),
      inActConn: Number(real[5]),
    });
  }
  return parsed({ version: header[1] ?? '', virtualServers });
}
