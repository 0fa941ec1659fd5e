/**
 * kube-proxy's command-line flags and the KubeProxyConfiguration key each one sets (the kube-proxy
 * flag reference, reference/kube-proxy-facts.md §2): how a flags-only DaemonSet is read as a
 * configuration, and which flags a `--config` file turns into no-ops.
 */

export type FlagKind = 'string' | 'bool' | 'int' | 'list' | 'gates';

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
