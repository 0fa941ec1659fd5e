// The twin's own resolution of kube-proxy's configuration from its Pod and ConfigMaps, the way
// kube-proxy does it: the `--config` file (from the mounted ConfigMap) wins and config flags are
// ignored; flags count only without --config; mode '' means iptables on Linux.

import { asArray, asNumber, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { decodeConfigFile } from './config-file.js';
import { expandEnv, flagsToConfig, parseFlags, parseGoDuration } from './flags.js';
import { configFileText, containerEnv, kubeProxyArgv, kubeProxyContainer } from './pod-spec.js';
import { atLeast, type Version } from '../versions.js';

export type ProxyMode = 'iptables' | 'ipvs' | 'nftables';

/** Pod annotation overriding the nft version inside the kube-proxy container (default: the image's 1.0.9). */
export const containerNftAnnotation = 'twin.proxy-migrate.io/container-nft';
export const skipKernelCheckEnv = 'KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK';

export interface KubeProxyConfig {
  readonly mode: ProxyMode;
  /** mode was '' and kube-proxy chose its default (it logs "Using iptables proxy"). */
  readonly modeDefaulted: boolean;
  readonly source: 'file' | 'flags';
  readonly configPath: string | undefined;
  readonly configMapName: string | undefined;
  /** As configured, after nftables' default of ["primary"] is applied. */
  readonly nodePortAddresses: readonly string[];
  readonly nodePortAddressesUnset: boolean;
  readonly featureGates: Readonly<Record<string, boolean>>;
  readonly metricsBindAddress: string;
  readonly healthzBindAddress: string;
  readonly clusterCIDRs: readonly string[];
  /** The mode's own sync period (iptables.*, ipvs.* or nftables.*), in seconds. */
  readonly syncPeriodSeconds: number;
  readonly masqueradeAll: boolean;
  readonly masqueradeBit: number;
  readonly ipvsScheduler: string;
  readonly ipvsStrictARP: boolean;
  readonly localhostNodePorts: boolean;
  readonly conntrack: {
    readonly maxPerCore: number;
    readonly min: number;
    readonly tcpBeLiberal: boolean;
  };
  readonly verbosity: number;
  readonly cleanupAndExit: boolean;
  readonly skipKernelCheck: boolean;
  readonly containerNft: string | undefined;
  readonly strictDecodingError: string | undefined;
}

export type ConfigResolution =
  | { readonly ok: true; readonly config: KubeProxyConfig }
  /** `plain`: printed as `Error: …` by cobra before logging is set up, not as a klog line. */
  | { readonly ok: false; readonly error: string; readonly plain: boolean };

type ConfigExtras = Pick<
  KubeProxyConfig,
  | 'source'
  | 'configPath'
  | 'configMapName'
  | 'verbosity'
  | 'cleanupAndExit'
  | 'skipKernelCheck'
  | 'containerNft'
  | 'strictDecodingError'
>;

const modes: readonly string[] = ['iptables', 'ipvs', 'nftables'];

function section(raw: JsonObject, key: string): JsonObject {
  return asRecord(raw[key]);
}

function seconds(value: unknown, fallback: number): number {
  const s = parseGoDuration(asString(value));
  return s === undefined || s === 0 ? fallback : s;
}

function bindAddress(value: unknown, fallback: string, port: number): string {
  const text = asString(value);
  if (text === '') return fallback;
  return /:\d+$/.test(text) && !text.endsWith('::') ? text : `${text}:${port}`;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

/**
 * The mode a blank `mode` means: iptables, and (KEP-5343, planned GA in v1.40, modelled) nftables
 * from v1.40 on, which is why the playbooks say to write the mode explicitly.
 */
export function defaultMode(version: Version | undefined): ProxyMode {
  return version !== undefined && atLeast(version, 40) ? 'nftables' : 'iptables';
}

function fromRaw(
  raw: JsonObject,
  extras: ConfigExtras,
  version: Version | undefined,
): ConfigResolution {
  const modeText = asString(raw['mode']);
  if (modeText !== '' && !modes.includes(modeText))
    return {
      ok: false,
      plain: false,
      error: `failed validate: KubeProxyConfiguration.mode: Unsupported value: "${modeText}": supported values: "iptables", "ipvs", "nftables"`,
    };
  const mode = (modeText === '' ? defaultMode(version) : modeText) as ProxyMode;
  const ipt = section(raw, 'iptables');
  const ipvs = section(raw, 'ipvs');
  const nft = section(raw, 'nftables');
  const ct = section(raw, 'conntrack');
  const npa = asArray(raw['nodePortAddresses'])
    .map((a) => asString(a))
    .filter((a) => a !== '');
  const gates: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(section(raw, 'featureGates'))) gates[k] = v === true;
  const own = mode === 'nftables' ? nft : mode === 'ipvs' ? ipvs : ipt;
  // IPVS reads the iptables masquerade settings; nftables has its own (conversion.go).
  const masq = mode === 'nftables' ? nft : ipt;
  return {
    ok: true,
    config: {
      ...extras,
      mode,
      modeDefaulted: modeText === '',
      nodePortAddresses: npa.length === 0 && mode === 'nftables' ? ['primary'] : npa,
      nodePortAddressesUnset: npa.length === 0,
      featureGates: gates,
      metricsBindAddress: bindAddress(raw['metricsBindAddress'], '127.0.0.1:10249', 10249),
      healthzBindAddress: bindAddress(raw['healthzBindAddress'], '0.0.0.0:10256', 10256),
      clusterCIDRs: asString(raw['clusterCIDR'])
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== ''),
      syncPeriodSeconds: seconds(own['syncPeriod'], 30),
      masqueradeAll: masq['masqueradeAll'] === true,
      masqueradeBit: numberOr(masq['masqueradeBit'], 14),
      ipvsScheduler: asString(ipvs['scheduler']),
      ipvsStrictARP: ipvs['strictARP'] === true,
      localhostNodePorts: ipt['localhostNodePorts'] !== false,
      conntrack: {
        maxPerCore: numberOr(ct['maxPerCore'], 32768),
        min: numberOr(ct['min'], 131072),
        tcpBeLiberal: ct['tcpBeLiberal'] === true,
      },
    },
  };
}

/** Resolves the configuration the kube-proxy container in `pod` would run with. */
export function resolveKubeProxyConfig(
  pod: KubeObject,
  configMaps: readonly KubeObject[],
  version?: Version,
): ConfigResolution {
  const container = kubeProxyContainer(pod);
  const env = containerEnv(pod, container, configMaps);
  const argv = kubeProxyArgv(container).map((a) => expandEnv(a, env));
  const parsed = parseFlags(argv);
  if (!parsed.ok) return { ok: false, plain: true, error: parsed.error };
  const flags = parsed.flags;
  const configPath = flags.get('config');
  const verbosityFlag = flags.get('v');
  const annotations = pod.metadata.annotations ?? {};
  const base = {
    configPath: configPath === '' ? undefined : configPath,
    cleanupAndExit: flags.get('cleanup') === 'true',
    skipKernelCheck: (env[skipKernelCheckEnv] ?? '') !== '',
    containerNft: annotations[containerNftAnnotation],
  };
  if (configPath === undefined || configPath === '')
    return fromRaw(
      flagsToConfig(flags),
      {
        ...base,
        source: 'flags',
        configMapName: undefined,
        verbosity: asNumber(Number(verbosityFlag ?? 0), 0),
        strictDecodingError: undefined,
      },
      version,
    );
  const file = configFileText(pod, container, configMaps, configPath);
  if (file.text === undefined)
    return {
      ok: false,
      plain: false,
      error: `failed complete: open ${configPath}: no such file or directory`,
    };
  const decoded = decodeConfigFile(file.text);
  if (!decoded.ok) return { ok: false, plain: false, error: `failed complete: ${decoded.error}` };
  const logging = asRecord(decoded.raw['logging']);
  return fromRaw(
    decoded.raw,
    {
      ...base,
      source: 'file',
      configMapName: file.configMap,
      verbosity:
        verbosityFlag !== undefined
          ? asNumber(Number(verbosityFlag), 0)
          : asNumber(isJsonObject(logging) ? logging['verbosity'] : undefined, 0),
      strictDecodingError: decoded.strictError,
    },
    version,
  );
}
