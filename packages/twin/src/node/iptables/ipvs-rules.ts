// IPVS mode's iptables rules, as pkg/proxy/ipvs/proxier.go writes them (createAndLinkKubeChain,
// then writeIptablesRules through iptables-restore --noflush), in the canonical form iptables-save
// prints: addresses (`! -s …`) before the matches, comments quoted, marks as 0x4000/0x4000.
// A rule that matches a set is written only while the set has entries, like the proxier's
// isEmpty() checks. `trimmed` leaves out what iptables-mode cleanup deleted.

import type { IpvsIptables } from '../dataplane/dataplane.js';
import type { IPFamily } from '../host/ip.js';
import { ipFamily } from '../host/ip.js';
import { ipvsIpsets, setByKey, type IpSet } from './ipsets.js';
import type { TablesBuilder } from './builder.js';

/** xtables_save_string: quoted when not only [A-Za-z0-9_-], with `"`, `\` and `'` escaped. */
export function saveString(value: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(value)) return value;
  return `"${value.replace(/["\\']/g, (c) => `\\${c}`)}"`;
}

const comment = (text: string): string => `-m comment --comment ${saveString(text)}`;
const hex = (n: number): string => `0x${n.toString(16)}`;

/** iptablesJumpChain: table, from, to, comment; each EnsureRule(Prepend)ed in this order. */
const jumps: readonly (readonly ['nat' | 'filter', string, string, string])[] = [
  ['nat', 'OUTPUT', 'KUBE-SERVICES', 'kubernetes service portals'],
  ['nat', 'PREROUTING', 'KUBE-SERVICES', 'kubernetes service portals'],
  ['nat', 'POSTROUTING', 'KUBE-POSTROUTING', 'kubernetes postrouting rules'],
  ['filter', 'FORWARD', 'KUBE-FORWARD', 'kubernetes forwarding rules'],
  ['filter', 'INPUT', 'KUBE-NODE-PORT', 'kubernetes health check rules'],
  ['filter', 'INPUT', 'KUBE-PROXY-FIREWALL', 'kube-proxy firewall rules'],
  ['filter', 'FORWARD', 'KUBE-PROXY-FIREWALL', 'kube-proxy firewall rules'],
  ['filter', 'INPUT', 'KUBE-IPVS-FILTER', 'kubernetes ipvs access filter'],
  ['filter', 'OUTPUT', 'KUBE-IPVS-OUT-FILTER', 'kubernetes ipvs access filter'],
];

/** iptablesChains: created (and listed) every sync. */
const natChains = [
  'KUBE-SERVICES',
  'KUBE-POSTROUTING',
  'KUBE-NODE-PORT',
  'KUBE-LOAD-BALANCER',
  'KUBE-MARK-MASQ',
];
const filterChains = [
  'KUBE-FORWARD',
  'KUBE-NODE-PORT',
  'KUBE-PROXY-FIREWALL',
  'KUBE-SOURCE-RANGES-FIREWALL',
  'KUBE-IPVS-FILTER',
  'KUBE-IPVS-OUT-FILTER',
];

/** What iptables.CleanupLeftovers removes from IPVS mode's chains (same names, same jumps). */
const trimmedChains = new Set(['nat/KUBE-SERVICES', 'nat/KUBE-POSTROUTING', 'filter/KUBE-FORWARD']);

export function writeIpvsRules(b: TablesBuilder, rules: IpvsIptables, family: IPFamily): void {
  const { program, trimmed } = rules;
  const sets = ipvsIpsets(program, family);
  const set = (key: string): IpSet => setByKey(sets, key);
  const kept = (table: 'nat' | 'filter', chain: string): boolean =>
    !trimmed || !trimmedChains.has(`${table}/${chain}`);
  const nat = (chain: string, rule: string): void => {
    if (kept('nat', chain)) b.append('nat', chain, rule);
  };
  const filter = (chain: string, rule: string): void => {
    if (kept('filter', chain)) b.append('filter', chain, rule);
  };
  for (const c of natChains) if (kept('nat', c)) b.chain('nat', c);
  for (const c of filterChains) if (kept('filter', c)) b.chain('filter', c);
  for (const [table, from, to, text] of jumps)
    if (kept(table, to)) b.prepend(table, from, `${comment(text)} -j ${to}`);

  const mark = hex(program.masqueradeMark);
  const match = (key: string, dims: string): string =>
    `-m set --match-set ${set(key).name} ${dims}`;
  const has = (key: string): boolean => set(key).entries.length > 0;
  const withComment = (key: string, dims: string): string =>
    `${comment(set(key).comment)} ${match(key, dims)}`;

  nat('KUBE-SERVICES', `-s ${family === 'IPv6' ? '::1/128' : '127.0.0.0/8'} -j RETURN`);
  // ipsetWithIptablesChain, in order.
  if (has('KUBE-LOOP-BACK'))
    nat('KUBE-POSTROUTING', `${withComment('KUBE-LOOP-BACK', 'dst,dst,src')} -j MASQUERADE`);
  if (has('KUBE-LOAD-BALANCER'))
    nat('KUBE-SERVICES', `${withComment('KUBE-LOAD-BALANCER', 'dst,dst')} -j KUBE-LOAD-BALANCER`);
  if (has('KUBE-LOAD-BALANCER-LOCAL'))
    nat('KUBE-LOAD-BALANCER', `${withComment('KUBE-LOAD-BALANCER-LOCAL', 'dst,dst')} -j RETURN`);
  for (const [proto, local, all, dims] of [
    ['tcp', 'KUBE-NODE-PORT-LOCAL-TCP', 'KUBE-NODE-PORT-TCP', 'dst'],
    ['udp', 'KUBE-NODE-PORT-LOCAL-UDP', 'KUBE-NODE-PORT-UDP', 'dst'],
    ['sctp', 'KUBE-NODE-PORT-LOCAL-SCTP-HASH', 'KUBE-NODE-PORT-SCTP-HASH', 'dst,dst'],
  ] as const) {
    if (has(local)) nat('KUBE-NODE-PORT', `-p ${proto} ${withComment(local, dims)} -j RETURN`);
    if (has(all)) nat('KUBE-NODE-PORT', `-p ${proto} ${withComment(all, dims)} -j KUBE-MARK-MASQ`);
  }
  if (has('KUBE-CLUSTER-IP')) {
    const cidr = program.clusterCIDRs.find((c) => ipFamily(c.split('/')[0] ?? '') === family);
    const rule = withComment('KUBE-CLUSTER-IP', 'dst,dst');
    if (program.masqueradeAll) nat('KUBE-SERVICES', `${rule} -j KUBE-MARK-MASQ`);
    else if (cidr !== undefined) nat('KUBE-SERVICES', `! -s ${cidr} ${rule} -j KUBE-MARK-MASQ`);
    else nat('KUBE-SERVICES', `${withComment('KUBE-CLUSTER-IP', 'src,dst')} -j KUBE-MARK-MASQ`);
  }
  for (const key of ['KUBE-EXTERNAL-IP', 'KUBE-EXTERNAL-IP-LOCAL']) {
    if (!has(key)) continue;
    const rule = withComment(key, 'dst,dst');
    if (key === 'KUBE-EXTERNAL-IP') nat('KUBE-SERVICES', `${rule} -j KUBE-MARK-MASQ`);
    nat(
      'KUBE-SERVICES',
      `${rule} -m physdev ! --physdev-is-in -m addrtype ! --src-type LOCAL -j ACCEPT`,
    );
    nat('KUBE-SERVICES', `${rule} -m addrtype --dst-type LOCAL -j ACCEPT`);
  }
  nat('KUBE-SERVICES', '-m addrtype --dst-type LOCAL -j KUBE-NODE-PORT');
  nat('KUBE-LOAD-BALANCER', '-j KUBE-MARK-MASQ');
  filter('KUBE-SOURCE-RANGES-FIREWALL', '-j DROP');
  // acceptIPVSTraffic: the end of KUBE-SERVICES.
  if (has('KUBE-CLUSTER-IP'))
    nat('KUBE-SERVICES', `${match('KUBE-CLUSTER-IP', 'dst,dst')} -j ACCEPT`);
  if (has('KUBE-LOAD-BALANCER'))
    nat('KUBE-SERVICES', `${match('KUBE-LOAD-BALANCER', 'dst,dst')} -j ACCEPT`);
  filter(
    'KUBE-FORWARD',
    `${comment('kubernetes forwarding rules')} -m mark --mark ${mark}/${mark} -j ACCEPT`,
  );
  filter(
    'KUBE-FORWARD',
    `${comment('kubernetes forwarding conntrack rule')} -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT`,
  );
  filter('KUBE-NODE-PORT', `${withComment('KUBE-HEALTH-CHECK-NODE-PORT', 'dst')} -j ACCEPT`);
  for (const [key, dims] of [
    ['KUBE-LOAD-BALANCER', 'dst,dst'],
    ['KUBE-CLUSTER-IP', 'dst,dst'],
    ['KUBE-EXTERNAL-IP', 'dst,dst'],
    ['KUBE-EXTERNAL-IP-LOCAL', 'dst,dst'],
    ['KUBE-HEALTH-CHECK-NODE-PORT', 'dst'],
  ] as const)
    filter('KUBE-IPVS-FILTER', `${match(key, dims)} -j RETURN`);
  const reject = family === 'IPv6' ? 'icmp6-port-unreachable' : 'icmp-port-unreachable';
  filter(
    'KUBE-IPVS-FILTER',
    `-m conntrack --ctstate NEW ${match('KUBE-IPVS-IPS', 'dst')} -j REJECT --reject-with ${reject}`,
  );
  nat('KUBE-POSTROUTING', `-m mark ! --mark ${mark}/${mark} -j RETURN`);
  nat('KUBE-POSTROUTING', `-j MARK --xor-mark ${mark}`);
  nat(
    'KUBE-POSTROUTING',
    `${comment('kubernetes service traffic requiring SNAT')} -j MASQUERADE --random-fully`,
  );
  nat('KUBE-MARK-MASQ', `-j MARK --or-mark ${mark}`);
}
