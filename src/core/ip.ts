/**
 * IP addresses and CIDRs, compared the way the tools print them: nft, ipvsadm and iproute2 print
 * IPv6 compressed and lowercase, the API serves ClusterIPs the same way, so equal text is the
 * same address once both are normalised. Used to match Service IPs and nodePortAddresses CIDRs.
 */

export type IpFamily = 'IPv4' | 'IPv6';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function ipFamily(ip: string): IpFamily | undefined {
  if (IPV4.test(ip)) return 'IPv4';
  return ipv6ToBigInt(ip) === undefined ? undefined : 'IPv6';
}

function ipv4ToBigInt(ip: string): bigint {
  return ip.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBigInt(ip: string): bigint | undefined {
  if (!ip.includes(':') || !/^[0-9a-fA-F:.]+$/.test(ip)) return undefined;
  let text = ip;
  // An embedded IPv4 tail (::ffff:10.0.0.1) becomes two hextets.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1] !== undefined) {
    if (!IPV4.test(tail[1])) return undefined;
    const v4 = ipv4ToBigInt(tail[1]);
    text = `${text.slice(0, tail.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' ? [] : (halves[0] ?? '').split(':');
  const rest = halves[1];
  const tailParts = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - head.length - tailParts.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return undefined;
  const parts = [
    ...head,
    ...Array<string>(rest === undefined ? 0 : missing).fill('0'),
    ...tailParts,
  ];
  if (!parts.every((p) => /^[0-9a-fA-F]{1,4}$/.test(p))) return undefined;
  return parts.reduce((n, p) => (n << 16n) | BigInt(Number.parseInt(p, 16)), 0n);
}

function toBigInt(ip: string): { value: bigint; bits: number } | undefined {
  if (IPV4.test(ip)) return { value: ipv4ToBigInt(ip), bits: 32 };
  const v6 = ipv6ToBigInt(ip);
  return v6 === undefined ? undefined : { value: v6, bits: 128 };
}

/** IPv6 in RFC 5952 form (lowercase, longest zero run compressed); IPv4 and non-IPs unchanged. */
export function normalizeIp(ip: string): string {
  const v6 = IPV4.test(ip) ? undefined : ipv6ToBigInt(ip);
  if (v6 === undefined) return ip;
  const parts = Array.from({ length: 8 }, (_, i) =>
    ((v6 >> BigInt((7 - i) * 16)) & 0xffffn).toString(16),
  );
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    if (parts[i] !== '0') {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && parts[j] === '0') j += 1;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j;
  }
  if (best.len < 2) return parts.join(':');
  const left = parts.slice(0, best.at).join(':');
  const right = parts.slice(best.at + best.len).join(':');
  return `${left}::${right}`;
}

export interface Cidr {
  family: IpFamily;
  base: bigint;
  prefix: number;
}

/** `10.0.0.0/8`, `::/0`; a bare address is a host route (/32 or /128). */
export function parseCidr(text: string): Cidr | undefined {
  const [ip = '', len] = text.trim().split('/');
  const parsed = toBigInt(ip);
  if (parsed === undefined) return undefined;
  const prefix = len === undefined ? parsed.bits : Number(len);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > parsed.bits || len === '')
    return undefined;
  const shift = BigInt(parsed.bits - prefix);
  return {
    family: parsed.bits === 32 ? 'IPv4' : 'IPv6',
    base: (parsed.value >> shift) << shift,
    prefix,
  };
}

export function cidrContains(cidr: Cidr, ip: string): boolean {
  const parsed = toBigInt(ip);
  if (parsed === undefined || (parsed.bits === 32) !== (cidr.family === 'IPv4')) return false;
  const shift = BigInt(parsed.bits - cidr.prefix);
  return (parsed.value >> shift) << shift === cidr.base;
}

/** Loopback (127/8, ::1) and link-local (169.254/16, fe80::/10) addresses. */
export function isLoopbackOrLinkLocal(ip: string): boolean {
  return ['127.0.0.0/8', '169.254.0.0/16', '::1/128', 'fe80::/10'].some((c) => {
    const cidr = parseCidr(c);
    return cidr !== undefined && cidrContains(cidr, ip);
  });
}

/** `10.0.0.1:80`, `[fd00::1]:80`: how curl and ipvsadm write an address with a port. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** `10.0.0.1:80` / `[fd00::1]:80` → host and port; undefined when there is no port. */
export function splitHostPort(text: string): { host: string; port: number } | undefined {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:[\]]*):(\d+)$/.exec(text);
  if (match === null) return undefined;
  return { host: match[1] ?? '', port: Number(match[2]) };
}
