// `sysctl` (procps) and `cat /proc/sys/...` for the keys the migration reads: conntrack count and
// max, route_localnet, tcp_be_liberal, arp_ignore/arp_announce (IPVS strictARP), ip_forward,
// kernel.osrelease. `sysctl KEY` prints `KEY = VALUE`, -n only the value; an unknown key fails
// with `sysctl: cannot stat /proc/sys/…: No such file or directory` (exit 255).

import type { HostSysctls } from '../host/host.js';
import { fail, nodeState, ok, type CommandContext, type CommandResult } from './types.js';
import type { NodeState } from '../view.js';

type Writable = keyof HostSysctls;

const writable: Record<string, Writable> = {
  'net.ipv4.conf.all.route_localnet': 'routeLocalnet',
  'net.netfilter.nf_conntrack_tcp_be_liberal': 'tcpBeLiberal',
  'net.ipv4.conf.all.arp_ignore': 'arpIgnore',
  'net.ipv4.conf.all.arp_announce': 'arpAnnounce',
};

export function sysctlValue(state: NodeState, key: string): string | undefined {
  const s = state.sysctls;
  switch (key) {
    case 'net.netfilter.nf_conntrack_count':
      return String(state.facts.conntrack.count);
    case 'net.netfilter.nf_conntrack_max':
    case 'net.nf_conntrack_max':
      return String(state.facts.conntrack.max);
    case 'net.ipv4.conf.all.route_localnet':
      return s.routeLocalnet ? '1' : '0';
    case 'net.netfilter.nf_conntrack_tcp_be_liberal':
      return s.tcpBeLiberal ? '1' : '0';
    case 'net.ipv4.conf.all.arp_ignore':
      return String(s.arpIgnore);
    case 'net.ipv4.conf.all.arp_announce':
      return String(s.arpAnnounce);
    case 'net.ipv4.ip_forward':
    case 'net.bridge.bridge-nf-call-iptables':
      return '1';
    case 'net.ipv4.vs.conntrack':
      return state.dataplane.ipvsModuleLoaded ? '1' : undefined;
    case 'kernel.osrelease':
      return state.facts.kernel;
    default:
      return undefined;
  }
}

const toKey = (path: string): string => path.replace(/^\/proc\/sys\//, '').replaceAll('/', '.');

export function runSysctl(ctx: CommandContext, args: readonly string[]): CommandResult {
  const state = nodeState(ctx);
  let valueOnly = false;
  let ignoreMissing = false;
  let write = false;
  let out = '';
  let err = '';
  let code = 0;
  for (const a of args) {
    if (a.startsWith('-') && !a.startsWith('--')) {
      valueOnly ||= a.includes('n');
      ignoreMissing ||= a.includes('e');
      write ||= a.includes('w');
      continue;
    }
    const [rawKey = '', newValue] = a.split('=');
    const key = toKey(rawKey.trim());
    if (write || newValue !== undefined) {
      const field = writable[key];
      if (field === undefined || newValue === undefined) {
        err += `sysctl: permission denied on key "${key}"\n`;
        code = 255;
        continue;
      }
      const v = Number(newValue.trim());
      const sysctls = {
        ...state.sysctls,
        [field]: field === 'routeLocalnet' || field === 'tcpBeLiberal' ? v !== 0 : v,
      };
      ctx.apply({ sysctls });
      out += valueOnly ? `${v}\n` : `${key} = ${v}\n`;
      continue;
    }
    const value = sysctlValue(state, key);
    if (value === undefined) {
      if (!ignoreMissing) {
        err += `sysctl: cannot stat /proc/sys/${key.replaceAll('.', '/')}: No such file or directory\n`;
        code = 255;
      }
      continue;
    }
    out += valueOnly ? `${value}\n` : `${key} = ${value}\n`;
  }
  return { exitCode: code, stdout: out, stderr: err };
}

/** `cat FILE…` for /proc/sys values (and stdin when there is no file). */
export function runCat(ctx: CommandContext, args: readonly string[], stdin: string): CommandResult {
  const files = args.filter((a) => !a.startsWith('-'));
  if (files.length === 0) return ok(stdin);
  const state = nodeState(ctx);
  let out = '';
  let err = '';
  for (const f of files) {
    const value = f.startsWith('/proc/sys/') ? sysctlValue(state, toKey(f)) : undefined;
    if (value === undefined) err += `cat: ${f}: No such file or directory\n`;
    else out += `${value}\n`;
  }
  return err === '' ? ok(out) : fail(1, err, out);
}
