// Risk: the canary silently gets nftables defaults: IPVS mode reads ipvs.* and iptables.masquerade*,
// nftables mode only nftables.*. reference/kube-proxy-facts.md §2, §8, §9; 2026 Playbook NodePort snippet.
// One rewrite for the config-carryover check (what it shows) and the canary plan (what it writes).
import type { KubeProxyConfiguration } from './kube-proxy-config.js';
import { isDict, manifestYaml, toYaml, type Dict } from './safe-yaml.js';

/** IPVS' "all local IPs" made explicit for both families (playbook: keep NodePorts answering). */
export const KEEP_ALL_NODEPORT_ADDRESSES = ['0.0.0.0/0', '::/0'] as const;

/** Kernels before this can reset long-lived connections without conntrack.tcpBeLiberal (facts §9). */
export const TCP_LIBERAL_KERNEL = { major: 6, minor: 1, patch: 0 } as const;

/** Values kube-proxy treats as "not set": null, "", [], {}, and zero durations such as `0s`. */
export function isUnset(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return typeof value === 'string' && /^0+(\.0+)?(ns|us|µs|ms|s|m|h)?$/.test(value);
}

/** nftables defaults that apply when nothing is carried (v1alpha1 defaulting; bit 14 = 0x4000). */
export const NFTABLES_DEFAULTS: Readonly<Record<string, string>> = {
  syncPeriod: '30s',
  minSyncPeriod: '1s',
  masqueradeAll: 'false',
  masqueradeBit: '14',
};

export interface CarriedSetting {
  /** Key in the current configuration, dotted (`ipvs.syncPeriod`). */
  from: string;
  /** Key in the nftables configuration. */
  to: string;
  value: unknown;
  /** Why, when it is not a plain copy. */
  note?: string;
  /** Not in the current configuration: set for nftables mode (conntrack.tcpBeLiberal). */
  added?: true;
}

export interface DroppedSetting {
  key: string;
  value: unknown;
  why: string;
}

export interface CarryOver {
  carried: CarriedSetting[];
  dropped: DroppedSetting[];
  /** nftables.* keys nothing was carried into, with the default kube-proxy then uses. */
  defaulted: { key: string; value: string }[];
  /** The whole configuration for the canary: the current one, rewritten for nftables. */
  config: KubeProxyConfiguration;
  /** The keys that change, as YAML to merge into the current configuration. */
  fragment: string;
}

function section(config: KubeProxyConfiguration, key: string): Dict {
  const value = config[key];
  return isDict(value) ? value : {};
}

/** A value as it appears in the mapping table. */
export function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const DROPPED_WHY: Readonly<Record<string, string>> = {
  scheduler: 'nftables picks endpoints at random (numgen random mod N); see ipvs-scheduler',
  strictARP:
    'nftables mode has no kube-ipvs0 to hide from ARP; the arp_ignore/arp_announce sysctls it set stay until reboot; see ipvs-only-settings',
  excludeCIDRs:
    'no equivalent; switching flushes every IPVS virtual server, excluded or not; see ipvs-only-settings',
  tcpTimeout: 'IPVS connection-table timeout; nftables mode relies on conntrack.* timeouts',
  tcpFinTimeout: 'IPVS connection-table timeout; nftables mode relies on conntrack.* timeouts',
  udpTimeout: 'IPVS connection-table timeout; nftables mode relies on conntrack.* timeouts',
};

const REWRITTEN = new Set([
  'apiVersion',
  'kind',
  'mode',
  'nodePortAddresses',
  'ipvs',
  'nftables',
  'iptables',
]);

export interface CarryOverOptions {
  /**
   * Also set conntrack.tcpBeLiberal: true (for nodes on kernels before 6.1, which nftables mode
   * leaves without an INVALID-drop workaround; facts §9). Default false.
   */
  tcpBeLiberal?: boolean;
}

/**
 * The current configuration rewritten for nftables mode: what carries over, what cannot, and the
 * fragment to merge into the nftables KubeProxyConfiguration. Pure: the same input gives the same
 * answer.
 */
export function nftablesCarryOver(
  config: KubeProxyConfiguration,
  options: CarryOverOptions = {},
): CarryOver {
  const mode = typeof config.mode === 'string' ? config.mode : '';
  // The section the running mode reads its sync periods from (conversion.go).
  const syncFrom =
    mode === '' || mode === 'iptables' ? 'iptables' : mode === 'nftables' ? 'nftables' : 'ipvs';
  const masqueradeFrom = syncFrom === 'nftables' ? 'nftables' : 'iptables';
  const existing = section(config, 'nftables');
  const carried: CarriedSetting[] = [];
  const dropped: DroppedSetting[] = [];
  const defaulted: { key: string; value: string }[] = [];
  const nftables: Dict = { ...existing };

  const carry = (key: string, from: string): void => {
    const value = section(config, from)[key];
    const previous = existing[key];
    if (!isUnset(value)) {
      nftables[key] = value;
      carried.push({ from: `${from}.${key}`, to: `nftables.${key}`, value });
      if (from !== 'nftables' && !isUnset(previous) && shown(previous) !== shown(value)) {
        dropped.push({
          key: `nftables.${key}`,
          value: previous,
          why: `unused in ${mode || 'iptables'} mode; replaced by ${from}.${key}, the value that runs today`,
        });
      }
    } else if (!isUnset(previous)) {
      carried.push({
        from: `nftables.${key}`,
        to: `nftables.${key}`,
        value: previous,
        note: 'already set',
      });
    } else {
      delete nftables[key];
      defaulted.push({ key: `nftables.${key}`, value: NFTABLES_DEFAULTS[key] ?? 'default' });
    }
  };
  carry('masqueradeAll', masqueradeFrom);
  carry('masqueradeBit', masqueradeFrom);
  carry('minSyncPeriod', syncFrom);
  carry('syncPeriod', syncFrom);

  const npa = config.nodePortAddresses;
  let nodePortAddresses: unknown = npa;
  if (Array.isArray(npa) && npa.length > 0) {
    carried.push({
      from: 'nodePortAddresses',
      to: 'nodePortAddresses',
      value: npa,
      note: 'unchanged',
    });
  } else if (syncFrom === 'nftables') {
    nodePortAddresses = npa;
  } else {
    nodePortAddresses = [...KEEP_ALL_NODEPORT_ADDRESSES];
    carried.push({
      from: 'nodePortAddresses',
      to: 'nodePortAddresses',
      value: nodePortAddresses,
      note: `unset means all local IPs in ${syncFrom} mode but only the primary IPs in nftables mode; made explicit so NodePorts keep answering where they do`,
    });
    if (npa !== undefined && npa !== null && !Array.isArray(npa)) {
      dropped.push({ key: 'nodePortAddresses', value: npa, why: 'not a list; replaced' });
    }
  }

  // conntrack.tcpBeLiberal: true, added when asked and not already set (then it carries unchanged).
  const conntrack = section(config, 'conntrack');
  const addLiberal = options.tcpBeLiberal === true && conntrack['tcpBeLiberal'] !== true;
  const newConntrack: Dict = addLiberal ? { ...conntrack, tcpBeLiberal: true } : conntrack;

  for (const [key, value] of Object.entries(config)) {
    if (REWRITTEN.has(key)) continue;
    if (isDict(value)) {
      for (const [sub, v] of Object.entries(value)) {
        if (addLiberal && key === 'conntrack' && sub === 'tcpBeLiberal') continue;
        if (!isUnset(v))
          carried.push({ from: `${key}.${sub}`, to: `${key}.${sub}`, value: v, note: 'unchanged' });
      }
    } else if (!isUnset(value)) {
      carried.push({ from: key, to: key, value, note: 'unchanged' });
    }
  }

  for (const [key, value] of Object.entries(section(config, 'ipvs'))) {
    if (syncFrom === 'ipvs' && (key === 'syncPeriod' || key === 'minSyncPeriod')) continue;
    if (isUnset(value) || value === false) continue;
    dropped.push({
      key: `ipvs.${key}`,
      value,
      why:
        DROPPED_WHY[key] ??
        `IPVS-only; nftables mode ignores it${syncFrom === 'ipvs' ? '' : ` (unused in ${syncFrom} mode too)`}`,
    });
  }

  if (addLiberal) {
    const previous = conntrack['tcpBeLiberal'];
    carried.push({
      from: 'conntrack.tcpBeLiberal',
      to: 'conntrack.tcpBeLiberal',
      value: true,
      added: true,
      note: `added${isUnset(previous) ? '' : ` in place of ${shown(previous)}`}: nodes run kernels before 6.1, where nftables mode has no INVALID-drop workaround; see conntrack-liberal`,
    });
  }

  const sortedNftables = Object.fromEntries(
    Object.entries(nftables).sort(([a], [b]) => a.localeCompare(b)),
  );
  const result: Dict = {};
  for (const [key, value] of Object.entries(config)) {
    if (key === 'ipvs') continue;
    if (key === 'mode') result.mode = 'nftables';
    else if (key === 'nodePortAddresses') result.nodePortAddresses = nodePortAddresses;
    else if (key === 'nftables') result.nftables = sortedNftables;
    else if (key === 'conntrack' && addLiberal) result.conntrack = newConntrack;
    else result[key] = value;
  }
  if (!('mode' in result)) result.mode = 'nftables';
  if (nodePortAddresses !== undefined && !('nodePortAddresses' in result)) {
    result.nodePortAddresses = nodePortAddresses;
  }
  if (Object.keys(sortedNftables).length > 0 && !('nftables' in result))
    result.nftables = sortedNftables;
  if (addLiberal && !('conntrack' in result)) result.conntrack = newConntrack;

  const changed: Dict = { mode: 'nftables' };
  if (nodePortAddresses !== undefined && nodePortAddresses !== null)
    changed.nodePortAddresses = nodePortAddresses;
  if (Object.keys(sortedNftables).length > 0) changed.nftables = sortedNftables;
  // The whole conntrack: block, so replacing the block does not lose its other keys.
  if (addLiberal) changed.conntrack = newConntrack;
  const fragment = [
    '# KubeProxyConfiguration for the nftables canary: the current one with these keys set and the',
    '# ipvs: block removed; every other key stays as it is.',
    toYaml(changed),
  ].join('\n');
  return { carried, dropped, defaulted, config: result, fragment };
}

/**
 * The nftables configuration as the canary's ConfigMap holds it: YAML 1.1-safe, keys in the
 * original's order, ending with a newline exactly when the original text did.
 */
export function nftablesConfigText(carryOver: CarryOver, originalText: string): string {
  const text = manifestYaml(carryOver.config);
  return originalText.endsWith('\n') ? text : text.replace(/\n$/, '');
}
