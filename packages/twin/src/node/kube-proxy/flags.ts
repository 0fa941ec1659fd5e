// kube-proxy's command line: pflag-style parsing (`--x=v`, `--x v`, bare booleans), `$(VAR)`
// expansion as the kubelet does it, and the mapping of config flags onto v1alpha1 fields. With
// `--config`, only logging flags, --hostname-override and --cleanup still count.

import type { JsonObject } from '../../apimachinery/types.js';

const boolFlags = new Set([
  'masquerade-all',
  'ipvs-strict-arp',
  'iptables-localhost-nodeports',
  'conntrack-tcp-be-liberal',
  'cleanup',
  'init-only',
  'profiling',
  'alsologtostderr',
  'logtostderr',
  'bind-address-hard-fail',
  'help',
  'version',
  'skip-headers',
]);

/** Flags that map onto configuration fields: ignored when --config is given. */
const configFlags: Record<string, string> = {
  'proxy-mode': 'mode',
  'nodeport-addresses': 'nodePortAddresses',
  'feature-gates': 'featureGates',
  'metrics-bind-address': 'metricsBindAddress',
  'healthz-bind-address': 'healthzBindAddress',
  'bind-address': 'bindAddress',
  'cluster-cidr': 'clusterCIDR',
  'ipvs-scheduler': 'ipvs.scheduler',
  'ipvs-strict-arp': 'ipvs.strictARP',
  'ipvs-sync-period': 'ipvs.syncPeriod',
  'iptables-sync-period': 'iptables.syncPeriod',
  'iptables-masquerade-bit': 'iptables.masqueradeBit',
  'iptables-localhost-nodeports': 'iptables.localhostNodePorts',
  'masquerade-all': 'iptables.masqueradeAll,nftables.masqueradeAll',
  'sync-period': 'iptables.syncPeriod,ipvs.syncPeriod,nftables.syncPeriod',
  'conntrack-max-per-core': 'conntrack.maxPerCore',
  'conntrack-min': 'conntrack.min',
  'conntrack-tcp-be-liberal': 'conntrack.tcpBeLiberal',
};

/** Flags kube-proxy knows that the twin accepts without modelling. */
const otherFlags = new Set([
  'config',
  'hostname-override',
  'v',
  'vmodule',
  'kubeconfig',
  'master',
  'oom-score-adj',
  'config-sync-period',
  'write-config-to',
  'log-flush-frequency',
  'logging-format',
  'log-dir',
  'log-file',
  'show-hidden-metrics-for-version',
  'proxy-port-range',
  'udp-timeout',
  'ipvs-exclude-cidrs',
  'ipvs-min-sync-period',
  'iptables-min-sync-period',
  'min-sync-period',
  'ipvs-tcp-timeout',
  'ipvs-tcpfin-timeout',
  'ipvs-udp-timeout',
  'conntrack-tcp-timeout-established',
  'conntrack-tcp-timeout-close-wait',
  'conntrack-udp-timeout',
  'conntrack-udp-timeout-stream',
  'detect-local-mode',
  'pod-bridge-interface',
  'pod-interface-name-prefix',
  'healthz-port',
  'metrics-port',
  'kube-api-burst',
  'kube-api-qps',
  'kube-api-content-type',
  ...boolFlags,
]);

export type FlagParse =
  | { readonly ok: true; readonly flags: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly error: string };

/** The kubelet's `$(VAR)` expansion; `$$(VAR)` escapes, unknown variables stay literal. */
export function expandEnv(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name?: string) =>
    name === undefined ? '$' : (env[name] ?? whole),
  );
}

export function parseFlags(args: readonly string[]): FlagParse {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const m = /^--?([A-Za-z0-9-]+)(?:=(.*))?$/s.exec(arg);
    if (!m) continue; // positional arguments are ignored by kube-proxy
    const name = m[1] ?? '';
    if (!configFlags[name] && !otherFlags.has(name))
      return { ok: false, error: `unknown flag: ${arg.split('=')[0] ?? arg}` };
    let value = m[2];
    if (value === undefined) {
      if (boolFlags.has(name)) value = 'true';
      else {
        value = args[i + 1] ?? '';
        i += 1;
      }
    }
    flags.set(name, value);
  }
  return { ok: true, flags };
}

function setPath(target: JsonObject, path: string, value: JsonObject[string]): void {
  const [head = '', tail] = path.split('.');
  if (tail === undefined) {
    target[head] = value;
    return;
  }
  const child = target[head];
  const obj: JsonObject =
    typeof child === 'object' && child !== null && !Array.isArray(child) ? child : {};
  obj[tail] = value;
  target[head] = obj;
}

function flagValue(name: string, text: string): JsonObject[string] {
  if (name === 'nodeport-addresses')
    return text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  if (name === 'feature-gates') {
    const gates: JsonObject = {};
    for (const pair of text.split(',')) {
      const [k = '', v = ''] = pair.split('=');
      if (k.trim() !== '') gates[k.trim()] = v.trim().toLowerCase() === 'true';
    }
    return gates;
  }
  if (boolFlags.has(name)) return text.toLowerCase() !== 'false';
  if (/^(conntrack-(max-per-core|min)|iptables-masquerade-bit)$/.test(name)) return Number(text);
  return text;
}

/** The v1alpha1 object the config flags describe (used only when there is no --config). */
export function flagsToConfig(flags: ReadonlyMap<string, string>): JsonObject {
  const raw: JsonObject = {};
  for (const [name, text] of flags) {
    const paths = configFlags[name];
    if (paths === undefined) continue;
    for (const path of paths.split(',')) setPath(raw, path, flagValue(name, text));
  }
  return raw;
}

/** Go duration text (`30s`, `1m30s`, `500ms`, `1h`) in seconds; undefined when unparseable. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const units: Record<string, number> = {
    h: 3600,
    m: 60,
    s: 1,
    ms: 0.001,
    us: 1e-6,
    µs: 1e-6,
    ns: 1e-9,
  };
  let total = 0;
  let rest = text.trim();
  if (rest === '') return undefined;
  while (rest !== '') {
    const m = /^(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * (units[m[2] ?? 's'] ?? 1);
    rest = rest.slice(m[0].length);
  }
  return total;
}
