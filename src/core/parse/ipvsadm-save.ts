/**
 * `ipvsadm -Sn` (save format, ipvsadm's `-S`): one `-A` line per virtual server and one `-a` per
 * real server, e.g. `-A -t 10.96.0.1:443 -s rr` and `-a -t 10.96.0.1:443 -r 10.0.0.10:6443 -m -w 1`.
 * It is the rollback reference: what `ipvsadm -R` could restore.
 */
import {
  ipvsAddress,
  type IpvsProtocol,
  type IpvsTable,
  type IpvsVirtualServer,
} from './ipvsadm.js';
import { parsed, unparsable, type Parsed } from './parsed.js';

const protocolFlags: Record<string, IpvsProtocol> = {
  '-t': 'TCP',
  '--tcp-service': 'TCP',
  '-u': 'UDP',
  '--udp-service': 'UDP',
  '--sctp-service': 'SCTP',
  '-f': 'FWM',
  '--fwmark-service': 'FWM',
};
const forwards: Record<string, string> = { '-m': 'Masq', '-g': 'Route', '-i': 'Tunnel' };

export function parseIpvsadmSave(text: string): Parsed<IpvsTable> {
  const virtualServers: IpvsVirtualServer[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const words = line.trim().split(/\s+/);
    const verb = words[0];
    if (verb === undefined || verb === '') continue;
    const bad = (why: string): Parsed<IpvsTable> =>
      unparsable(`ipvsadm -Sn line ${i + 1}: ${why} ("${line.trim()}")`);
    if (verb !== '-A' && verb !== '-a') return bad('expected -A or -a');
    const flagAt = words.findIndex((w) => protocolFlags[w] !== undefined);
    const protocol = protocolFlags[words[flagAt] ?? ''];
    const at = protocol === undefined ? undefined : ipvsAddress(protocol, words[flagAt + 1] ?? '');
    if (protocol === undefined || at === undefined) return bad('no service address');
    const value = (flag: string): string | undefined => {
      const index = words.indexOf(flag);
      return index < 0 ? undefined : words[index + 1];
    };
    if (verb === '-A') {
      const persistent = value('-p');
      virtualServers.push({
        protocol,
        ...at,
        scheduler: value('-s') ?? 'wlc',
        flags: persistent === undefined ? [] : [`persistent ${persistent}`],
        realServers: [],
      });
      continue;
    }
    const owner = virtualServers.find(
      (vs) => vs.protocol === protocol && vs.address === at.address && vs.port === at.port,
    );
    const real = ipvsAddress(protocol === 'FWM' ? 'TCP' : protocol, value('-r') ?? '');
    if (owner === undefined || real === undefined) return bad('real server without its service');
    owner.realServers.push({
      ...real,
      forward: words.map((w) => forwards[w]).find((f) => f !== undefined) ?? 'Route',
      weight: Number(value('-w') ?? 1),
    });
  }
  return parsed({ virtualServers });
}
