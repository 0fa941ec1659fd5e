// createProxier for each mode: the mode-specific start work after "Using <mode> Proxier" — the
// iptables route_localnet sysctl, IPVS's deprecation error/event, scheduler default and strictARP
// sysctls, and the nftables support checks that can still fail the start.

import type { HostFacts, HostSysctls } from '../host/host.js';
import type { KlogWriter } from './klog.js';
import { nftablesCheck } from './startup-checks.js';
import type { KubeProxyConfig } from './config.js';
import { ipvsDeprecation, logRouteLocalnet } from './logs.js';
import { nodePortScopes } from '../dataplane/programs.js';
import { atLeast, type Version } from '../versions.js';

export interface ProxyEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly action: string;
  readonly note: string;
}

export interface Created {
  /** Why NewProxier failed for the IPv4 family, if it did. */
  readonly error: string | undefined;
  readonly sysctls: Partial<HostSysctls>;
  readonly events: readonly ProxyEvent[];
  readonly rejectedLoopback: readonly string[];
}

export function createProxier(
  w: KlogWriter,
  cfg: KubeProxyConfig,
  facts: HostFacts,
  version: Version,
): Created {
  const sysctls: Partial<HostSysctls> = {};
  const events: ProxyEvent[] = [];
  if (cfg.conntrack.tcpBeLiberal) sysctls.tcpBeLiberal = true;
  const { scopes, rejectedLoopback } = nodePortScopes(cfg, facts);
  if (
    cfg.mode === 'iptables' &&
    cfg.localhostNodePorts &&
    (scopes.IPv4.all || scopes.IPv4.ips.includes('127.0.0.1'))
  ) {
    logRouteLocalnet(w, version, 'IPv4');
    sysctls.routeLocalnet = true;
  }
  if (cfg.mode === 'ipvs') {
    if (atLeast(version, 35)) {
      w.log('E', 'server_linux.go:196', ipvsDeprecation);
      events.push({
        type: 'Warning',
        reason: 'IPVSDeprecation',
        action: 'StartKubeProxy',
        note: ipvsDeprecation,
      });
    }
    if (cfg.ipvsScheduler === '')
      for (const ipFamily of ['IPv4', 'IPv6'])
        w.log('I', 'proxier.go:265', 'IPVS scheduler not specified, use rr by default', {
          ipFamily,
        });
    if (cfg.ipvsStrictARP) Object.assign(sysctls, { arpIgnore: 1, arpAnnounce: 2 });
  }
  const error = cfg.mode === 'nftables' ? nftablesCheck(cfg, facts, version) : undefined;
  return { error, sysctls, events, rejectedLoopback };
}
