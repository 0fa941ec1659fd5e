// The node's network interfaces as `ip` shows them: lo, eth0 with the primary address (and any
// IPv6), one more NIC per secondary IPv4 address, and kube-ipvs0 (a DOWN dummy link) holding every
// service IP while IPVS mode's dummy device exists. Prefix lengths are /24 (not modelled).

import { createHash } from 'node:crypto';
import { ipFamily, ipv4ToNumber, numberToIPv4 } from './ip.js';
import { ipvsDummyAddresses } from '../dataplane/ipvs.js';
import type { NodeState } from '../view.js';

export interface InterfaceAddress {
  readonly family: 'inet' | 'inet6';
  readonly local: string;
  readonly prefixlen: number;
  readonly broadcast?: string;
  readonly scope: 'host' | 'global';
}

export interface Interface {
  readonly ifindex: number;
  readonly ifname: string;
  readonly flags: readonly string[];
  readonly mtu: number;
  readonly qdisc: string;
  readonly operstate: 'UNKNOWN' | 'UP' | 'DOWN';
  readonly linkType: 'loopback' | 'ether';
  readonly address: string;
  readonly broadcast: string;
  readonly addrs: readonly InterfaceAddress[];
}

export const ipvsDevice = 'kube-ipvs0';

function mac(seed: string): string {
  const h = createHash('sha1').update(seed).digest();
  const bytes = [...h.subarray(0, 6)];
  bytes[0] = ((bytes[0] ?? 0) & 0xfe) | 0x02; // locally administered, unicast
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

function v4(ip: string): InterfaceAddress {
  const base = ipv4ToNumber(ip) & 0xffffff00;
  return {
    family: 'inet',
    local: ip,
    prefixlen: 24,
    broadcast: numberToIPv4((base | 0xff) >>> 0),
    scope: 'global',
  };
}

export function nodeInterfaces(state: NodeState): Interface[] {
  const addrs = state.facts.addresses;
  const v4s = addrs.filter((ip) => ipFamily(ip) === 'IPv4');
  const v6s = addrs.filter((ip) => ipFamily(ip) === 'IPv6');
  const nics = Math.max(1, v4s.length);
  const list: Interface[] = [
    {
      ifindex: 1,
      ifname: 'lo',
      flags: ['LOOPBACK', 'UP', 'LOWER_UP'],
      mtu: 65536,
      qdisc: 'noqueue',
      operstate: 'UNKNOWN',
      linkType: 'loopback',
      address: '00:00:00:00:00:00',
      broadcast: '00:00:00:00:00:00',
      addrs: [
        { family: 'inet', local: '127.0.0.1', prefixlen: 8, scope: 'host' },
        { family: 'inet6', local: '::1', prefixlen: 128, scope: 'host' },
      ],
    },
  ];
  for (let i = 0; i < nics; i += 1) {
    const ip = v4s[i];
    list.push({
      ifindex: i + 2,
      ifname: `eth${i}`,
      flags: ['BROADCAST', 'MULTICAST', 'UP', 'LOWER_UP'],
      mtu: 1500,
      qdisc: 'mq',
      operstate: 'UP',
      linkType: 'ether',
      address: mac(`${state.name}/eth${i}`),
      broadcast: 'ff:ff:ff:ff:ff:ff',
      addrs: [
        ...(ip === undefined ? [] : [v4(ip)]),
        ...(i === 0
          ? v6s.map((l): InterfaceAddress => ({
              family: 'inet6',
              local: l,
              prefixlen: 64,
              scope: 'global',
            }))
          : []),
      ],
    });
  }
  const dummy = state.dataplane.ipvsDummy;
  // Its addresses are every Service IP: built only when something reads them, so `ip addr show
  // up` (which skips the DOWN dummy) and `ip link` cost nothing on a 20,000-Service node.
  let dummyAddrs: readonly InterfaceAddress[] | undefined;
  if (dummy)
    list.push({
      ifindex: nics + 2,
      ifname: ipvsDevice,
      flags: ['BROADCAST', 'NOARP'],
      mtu: 1500,
      qdisc: 'noop',
      operstate: 'DOWN',
      linkType: 'ether',
      address: mac(`${state.name}/${ipvsDevice}`),
      broadcast: 'ff:ff:ff:ff:ff:ff',
      get addrs(): readonly InterfaceAddress[] {
        dummyAddrs ??= ipvsDummyAddresses(dummy).map((ip): InterfaceAddress =>
          ipFamily(ip) === 'IPv6'
            ? { family: 'inet6', local: ip, prefixlen: 128, scope: 'global' }
            : { family: 'inet', local: ip, prefixlen: 32, scope: 'global' },
        );
        return dummyAddrs;
      },
    });
  return list;
}
