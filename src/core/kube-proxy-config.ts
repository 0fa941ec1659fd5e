/**
 * Where kube-proxy gets its configuration and which mode it runs, decided the way kube-proxy
 * itself decides: a `--config` file (from a mounted ConfigMap) wins and makes config flags no-ops
 * (kubernetes/kubernetes#98302); an empty `mode` means iptables on Linux
 * (reference/kube-proxy-facts.md §2, §3).
 */
import { parse as parseYaml } from 'yaml';
import type { Container, KubeDaemonSet } from './kube.js';
import { FLAG_KEYS } from './kube-proxy-flags.js';

/**
 * The modes kube-proxy's validation accepts on Linux (validateProxyModeLinux). `kernelspace` is
 * Windows-only: a Linux DaemonSet that sets it fails validation, so it is not listed here.
 */
export const proxyModes = ['iptables', 'ipvs', 'nftables'] as const;
export type ProxyMode = (typeof proxyModes)[number];

export function isProxyMode(value: unknown): value is ProxyMode {
  return typeof value === 'string' && (proxyModes as readonly string[]).includes(value);
}

/** The KubeProxyConfiguration keys the product reads; everything else is kept as-is. */
export interface KubeProxyConfiguration {
  apiVersion?: string;
  kind?: string;
  mode?: string;
  nodePortAddresses?: string[] | null;
  featureGates?: Record<string, boolean>;
  metricsBindAddress?: string;
  healthzBindAddress?: string;
  bindAddress?: string;
  clusterCIDR?: string;
  iptables?: Record<string, unknown>;
  ipvs?: Record<string, unknown>;
  nftables?: Record<string, unknown>;
  conntrack?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Names of the DaemonSets kube-proxy ships as: kubeadm, EKS and friends use `kube-proxy`. */
export function findKubeProxyDaemonSet(
  daemonSets: readonly KubeDaemonSet[],
): KubeDaemonSet | undefined {
  const isKubeProxy = (ds: KubeDaemonSet): boolean =>
    ds.metadata.name === 'kube-proxy' ||
    (ds.metadata.labels?.['k8s-app'] === 'kube-proxy' && !ds.metadata.name.endsWith('-nftables'));
  return daemonSets.find((ds) => ds.metadata.name === 'kube-proxy') ?? daemonSets.find(isKubeProxy);
}

export function kubeProxyContainer(ds: KubeDaemonSet): Container | undefined {
  const containers = ds.spec?.template?.spec?.containers ?? [];
  return containers.find((c) => c.name === 'kube-proxy') ?? containers[0];
}

/**
 * Go-style flags from a container's command and args: `--k=v`, `-k=v`, `--k v` and bare booleans.
 * Values of repeated flags: the last one wins, as with Go's flag package.
 */
export function parseFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] ?? '';
    const match = /^--?([A-Za-z0-9][A-Za-z0-9-_.]*)(?:=(.*))?$/s.exec(token);
    if (!match) continue;
    const name = match[1] ?? '';
    if (match[2] !== undefined) {
      flags.set(name, match[2]);
    } else if (i + 1 < argv.length && !(argv[i + 1] ?? '').startsWith('-')) {
      flags.set(name, argv[i + 1] ?? '');
      i += 1;
    } else {
      flags.set(name, 'true');
    }
  }
  return flags;
}

export type ConfigSource =
  | { kind: 'configmap'; path: string; configMap: string; key: string }
  | { kind: 'unresolved'; path: string; reason: string }
  | { kind: 'flags' };

/** Follows `--config=<path>` through the container's volume mounts to a ConfigMap key. */
export function resolveConfigSource(
  ds: KubeDaemonSet,
  container: Container,
  flags: Map<string, string>,
): ConfigSource {
  const path = flags.get('config');
  if (path === undefined) return { kind: 'flags' };
  const volumes = ds.spec?.template?.spec?.volumes ?? [];
  const mounts = [...(container.volumeMounts ?? [])].sort(
    (a, b) => b.mountPath.length - a.mountPath.length,
  );
  for (const mount of mounts) {
    const dir = mount.mountPath.replace(/\/+$/, '');
    const inside = path === dir || path.startsWith(`${dir}/`);
    if (!inside) continue;
    const volume = volumes.find((v) => v.name === mount.name);
    if (volume?.configMap === undefined) {
      return {
        kind: 'unresolved',
        path,
        reason: `${path} is on volume "${mount.name}", which is not a ConfigMap`,
      };
    }
    const relative = mount.subPath ?? path.slice(dir.length + 1);
    const item = volume.configMap.items?.find((i) => i.path === relative);
    return {
      kind: 'configmap',
      path,
      configMap: volume.configMap.name,
      key: item?.key ?? relative,
    };
  }
  return {
    kind: 'unresolved',
    path,
    reason: `no volume of the kube-proxy container is mounted at ${path}`,
  };
}

export type ParsedConfig =
  { ok: true; config: KubeProxyConfiguration } | { ok: false; error: string };

export function parseKubeProxyConfiguration(text: string): ParsedConfig {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    return { ok: false, error: `not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'not a YAML mapping' };
  }
  const config = value as KubeProxyConfiguration;
  if (config.kind !== undefined && config.kind !== 'KubeProxyConfiguration') {
    return { ok: false, error: `kind is ${String(config.kind)}, expected KubeProxyConfiguration` };
  }
  return { ok: true, config };
}

export interface ModeResolution {
  /** The raw value people wrote; `''` when blank, undefined when missing altogether. */
  configured: string | undefined;
  /** What kube-proxy actually runs; `unknown` when the value is not a mode kube-proxy knows. */
  effective: ProxyMode | 'unknown';
  source: 'config-file' | 'flag' | 'default';
  /** Config flags that kube-proxy ignores because `--config` is given. */
  ignoredFlags: string[];
}

/**
 * Flags that set something the config file also sets; next to `--config` they do nothing. All of
 * {@link FLAG_KEYS} but `--hostname-override`, which kube-proxy still applies on top of the file
 * (kubeadm and EKS pass it next to --config).
 */
const CONFIG_FLAGS = Object.keys(FLAG_KEYS).filter((flag) => flag !== 'hostname-override');

export function resolveMode(
  flags: Map<string, string>,
  config: KubeProxyConfiguration | undefined,
): ModeResolution {
  const effectiveOf = (raw: string | undefined): ProxyMode | 'unknown' =>
    raw === undefined || raw === '' ? 'iptables' : isProxyMode(raw) ? raw : 'unknown';
  if (flags.has('config')) {
    const raw: unknown = config?.mode;
    const configured =
      raw === undefined || raw === null
        ? undefined
        : typeof raw === 'string'
          ? raw
          : JSON.stringify(raw);
    return {
      configured,
      effective: config === undefined ? 'unknown' : effectiveOf(configured),
      source: configured === undefined || configured === '' ? 'default' : 'config-file',
      ignoredFlags: CONFIG_FLAGS.filter((f) => flags.has(f)).map(
        (f) => `--${f}=${flags.get(f) ?? ''}`,
      ),
    };
  }
  const flag = flags.get('proxy-mode');
  return {
    configured: flag,
    effective: effectiveOf(flag),
    source: flag === undefined || flag === '' ? 'default' : 'flag',
    ignoredFlags: [],
  };
}
