/**
 * `ip -j link show kube-ipvs0` and `ip -j addr` (iproute2 JSON): an array of links, each with
 * `ifname`, `flags`, `operstate` and, from `addr`, `addr_info`. A missing device prints nothing on
 * stdout and `Device "kube-ipvs0" does not exist.` on stderr with exit 1 (facts §11). Filtering by
 * family (`ip -j -4 addr`) leaves `{}` for links without such an address; those are skipped.
 */
import { isRecord, parseJson, parsed, unparsable, type Parsed } from './parsed.js';

export interface IpAddress {
  family: 'inet' | 'inet6';
  local: string;
  prefixlen: number;
  scope: string;
}

export interface IpLink {
  ifindex: number;
  name: string;
  flags: string[];
  operstate: string;
  linkType: string;
  /** Empty for `ip link`; the addresses for `ip addr`. */
  addresses: IpAddress[];
}

/** iproute2's wording for an absent device (`show`), and `link del`'s. */
export function ipDeviceMissing(stderr: string): boolean {
  return /Device "[^"]*" does not exist|Cannot find device/.test(stderr);
}

function address(value: unknown): IpAddress | undefined {
  if (!isRecord(value)) return undefined;
  const family = value['family'];
  const local = value['local'];
  if ((family !== 'inet' && family !== 'inet6') || typeof local !== 'string') return undefined;
  return {
    family,
    local,
    prefixlen: typeof value['prefixlen'] === 'number' ? value['prefixlen'] : 0,
    scope: typeof value['scope'] === 'string' ? value['scope'] : '',
  };
}

export function parseIpJson(text: string): Parsed<IpLink[]> {
  const json = parseJson(text, 'ip -j');
  if (!json.ok) return json;
  if (!Array.isArray(json.value)) return unparsable('ip -j: not a JSON array');
  const links: IpLink[] = [];
  for (const item of json.value) {
    if (!isRecord(item) || typeof item['ifname'] !== 'string') continue;
    const flags = Array.isArray(item['flags']) ? item['flags'] : [];
    const info = Array.isArray(item['addr_info']) ? item['addr_info'] : [];
    links.push({
      ifindex: typeof item['ifindex'] === 'number' ? item['ifindex'] : 0,
      name: item['ifname'],
      flags: flags.filter((f): f is string => typeof f === 'string'),
      operstate: typeof item['operstate'] === 'string' ? item['operstate'] : '',
      linkType: typeof item['link_type'] === 'string' ? item['link_type'] : '',
      addresses: info.map(address).filter((a): a is IpAddress => a !== undefined),
    });
  }
  return parsed(links);
}
