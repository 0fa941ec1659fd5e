/** kube-proxy's command-line flags as configuration, for a DaemonSet that runs without --config. */
import type { KubeProxyConfiguration } from '../../core/kube-proxy-config.js';

type FlagKind = 'string' | 'bool' | 'int' | 'list' | 'gates';

/** kube-proxy flags and the KubeProxyConfiguration key each one sets (kube-proxy flag reference). */
export const FLAG_KEYS: Readonly<Record<string, readonly [path: string, kind: FlagKind]>> = {
  'proxy-mode': ['mode', 'string'],
  'nodeport-addresses': ['nodePortAddresses', 'list'],
  'cluster-cidr': ['clusterCIDR', 'string'],
  'metrics-bind-address': ['metricsBindAddress', 'string'],
  'healthz-bind-address': ['healthzBindAddress', 'string'],
  'bind-address': ['bindAddress', 'string'],
  'hostname-override': ['hostnameOverride', 'string'],
  'detect-local-mode': ['detectLocalMode', 'string'],
  'oom-score-adj': ['oomScoreAdj', 'int'],
  'config-sync-period': ['configSyncPeriod', 'string'],
  kubeconfig: ['clientConnection.kubeconfig', 'string'],
  'feature-gates': ['featureGates', 'gates'],
  'masquerade-all': ['iptables.masqueradeAll', 'bool'],
  'iptables-masquerade-bit': ['iptables.masqueradeBit', 'int'],
  'iptables-sync-period': ['iptables.syncPeriod', 'string'],
  'iptables-min-sync-period': ['iptables.minSyncPeriod', 'string'],
  'ipvs-scheduler': ['ipvs.scheduler', 'string'],
  'ipvs-strict-arp': ['ipvs.strictARP', 'bool'],
  'ipvs-sync-period': ['ipvs.syncPeriod', 'string'],
  'ipvs-min-sync-period': ['ipvs.minSyncPeriod', 'string'],
  'ipvs-exclude-cidrs': ['ipvs.excludeCIDRs', 'list'],
  'ipvs-tcp-timeout': ['ipvs.tcpTimeout', 'string'],
  'ipvs-tcpfin-timeout': ['ipvs.tcpFinTimeout', 'string'],
  'ipvs-udp-timeout': ['ipvs.udpTimeout', 'string'],
  'conntrack-max-per-core': ['conntrack.maxPerCore', 'int'],
  'conntrack-min': ['conntrack.min', 'int'],
  'conntrack-tcp-timeout-established': ['conntrack.tcpEstablishedTimeout', 'string'],
  'conntrack-tcp-timeout-close-wait': ['conntrack.tcpCloseWaitTimeout', 'string'],
  'conntrack-tcp-be-liberal': ['conntrack.tcpBeLiberal', 'bool'],
  'conntrack-udp-timeout': ['conntrack.udpTimeout', 'string'],
  'conntrack-udp-timeout-stream': ['conntrack.udpStreamTimeout', 'string'],
};

function flagValue(raw: string, kind: FlagKind): unknown {
  const list = (): string[] =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  switch (kind) {
    case 'string':
      return raw;
    case 'bool':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'int':
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    case 'list':
      return list();
    case 'gates':
      return Object.fromEntries(
        list().map((pair) => {
          const [gate = '', value = ''] = pair.split('=');
          return [
            gate.trim(),
            value.trim() === 'true' ? true : value.trim() === 'false' ? false : value,
          ];
        }),
      );
  }
}

/** The KubeProxyConfiguration that a set of flags amounts to; unknown flags are left out. */
export function configFromFlags(flags: ReadonlyMap<string, string>): KubeProxyConfiguration {
  const config: Record<string, unknown> = {};
  for (const [flag, raw] of flags) {
    const entry = FLAG_KEYS[flag];
    if (entry === undefined) continue;
    const [path, kind] = entry;
    const [section, key] = path.split('.');
    if (section === undefined) continue;
    if (key === undefined) {
      config[section] = flagValue(raw, kind);
    } else {
      const existing = config[section];
      const target =
        typeof existing === 'object' && existing !== null
          ? (existing as Record<string, unknown>)
          : {};
      target[key] = flagValue(raw, kind);
      config[section] = target;
    }
  }
  return config;
}
