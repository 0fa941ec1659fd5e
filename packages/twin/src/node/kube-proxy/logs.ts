// kube-proxy's startup and failure log lines, per release band. Messages and keys are the real
// ones (server.go, server_linux.go, conntrack.go, proxier.go, client-go informers); the file:line
// numbers are representative of each band (v1.31–1.32, v1.33, v1.34+), not exact per patch.

import type { KlogWriter } from './klog.js';
import type { ProxyMode } from './config.js';
import { atLeast, formatVersion, type Version } from '../versions.js';

const band = (v: Version): 0 | 1 | 2 => (atLeast(v, 34) ? 2 : atLeast(v, 33) ? 1 : 0);
const pick = (v: Version, lines: readonly [string, string, string]): string => lines[band(v)];

export const nodePortUnsetError =
  'nodePortAddresses is unset; NodePort connections will be accepted on all local IPs. Consider using `--nodeport-addresses primary`';

export const ipvsDeprecation =
  "The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead.";

/** platformApplyDefaults; the nftables wording (v1.40 default) mirrors the iptables one. */
export function logModeDefaulted(w: KlogWriter, v: Version, mode: ProxyMode): void {
  const source = pick(v, ['server_linux.go:66', 'server_linux.go:66', 'server_linux.go:53']);
  w.log('I', source, `Using ${mode} proxy`);
}

export function logNodeIPs(w: KlogWriter, v: Version, ips: readonly string[]): void {
  if (band(v) === 0) {
    w.log('I', 'server.go:677', 'Successfully retrieved node IP(s)', { IPs: ips });
    return;
  }
  if (band(v) === 2) {
    w.log('I', 'shared_informer.go:350', 'Waiting for caches to sync');
    w.log('I', 'shared_informer.go:357', 'Caches are synced');
  }
  w.log('I', pick(v, ['', 'server.go:219', 'server.go:218']), 'Successfully retrieved NodeIPs', {
    NodeIPs: ips,
  });
}

export function logConntrackMax(w: KlogWriter, v: Version, max: number): void {
  w.log(
    'I',
    pick(v, ['conntrack.go:60', 'conntrack.go:60', 'conntrack.go:57']),
    'Setting nf_conntrack_max',
    {
      nfConntrackMax: max,
    },
  );
}

export function logNodePortUnset(w: KlogWriter, v: Version): void {
  w.log(
    'E',
    pick(v, ['server.go:234', 'server.go:246', 'server.go:255']),
    'Kube-proxy configuration may be incomplete or incorrect',
    {
      err: nodePortUnsetError,
    },
  );
}

export function logDualStack(w: KlogWriter, v: Version): void {
  w.log(
    'I',
    pick(v, ['server.go:243', 'server.go:255', 'server.go:264']),
    'kube-proxy running in dual-stack mode',
    {
      'primary ipFamily': 'IPv4',
    },
  );
}

export function logUsingProxier(w: KlogWriter, v: Version, mode: ProxyMode): void {
  const line: Record<ProxyMode, readonly [string, string, string]> = {
    iptables: ['server_linux.go:169', 'server_linux.go:148', 'server_linux.go:136'],
    ipvs: ['server_linux.go:204', 'server_linux.go:185', 'server_linux.go:194'],
    nftables: ['server_linux.go:262', 'server_linux.go:226', 'server_linux.go:231'],
  };
  w.log('I', pick(v, line[mode]), `Using ${mode} Proxier`);
}

export function logRouteLocalnet(w: KlogWriter, v: Version, family: string): void {
  w.log(
    'I',
    pick(v, ['proxier.go:255', 'proxier.go:243', 'proxier.go:242']),
    'Setting route_localnet=1 to allow node-ports on localhost; to change this either disable iptables.localhostNodePorts (--iptables-localhost-nodeports) or set nodePortAddresses (--nodeport-addresses) to filter loopback addresses',
    { ipFamily: family },
  );
}

export function logStartupTail(w: KlogWriter, v: Version): void {
  const b = band(v);
  w.log('I', pick(v, ['server.go:483', 'server.go:497', 'server.go:529']), 'Version info', {
    version: formatVersion(v),
  });
  w.log('I', pick(v, ['server.go:485', 'server.go:499', 'server.go:531']), 'Golang settings', {
    GOGC: '',
    GOMAXPROCS: '',
    GOTRACEBACK: '',
  });
  const controllers: [string, string][] = [
    ['config.go:199', 'service config'],
    ['config.go:105', 'endpoint slice config'],
    ...(b >= 1 ? [['config.go:403', 'serviceCIDR config'] as [string, string]] : []),
    ['config.go:329', 'node config'],
  ];
  for (const [source, name] of controllers) {
    w.log('I', source, `Starting ${name} controller`);
    if (b === 2)
      w.log('I', 'shared_informer.go:350', 'Waiting for caches to sync', { controller: name });
    else w.raw('I', 'shared_informer.go:313', `Waiting for caches to sync for ${name}`);
  }
  for (const [, name] of [...controllers].reverse()) {
    if (b === 2) w.log('I', 'shared_informer.go:357', 'Caches are synced', { controller: name });
    else w.raw('I', 'shared_informer.go:320', `Caches are synced for ${name}`);
  }
}

/** The two lines every failed run ends with: Run's error, then component-base's cli.Run. */
export function logRunFailure(w: KlogWriter, v: Version, err: string): void {
  w.log(
    'E',
    pick(v, ['server.go:556', 'server.go:571', 'server.go:577']),
    'Error running ProxyServer',
    { err },
  );
  logCommandFailed(w, err);
}

export function logCommandFailed(w: KlogWriter, err: string): void {
  w.log('E', 'run.go:72', 'command failed', { err });
}
