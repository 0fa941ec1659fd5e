// Release-dependent checks kube-proxy makes before it touches the host (Complete, then
// Validate): feature gates, whether the mode exists in this release, nodePortAddresses keywords.
// A failure here exits before platformCleanup, so the old rules stay.
//
// KubeProxyIPVS follows KEP-5495: introduced v1.37 (default true), default false from v1.40,
// locked to false from v1.43. The rejection text lists the valid modes; its exact wording in
// those releases is not published yet, so it is modelled on kube-proxy's validation style.

import { parseCidr } from '../host/ip.js';
import type { KubeProxyConfig } from './config.js';
import { atLeast, type Version } from '../versions.js';

export function ipvsEnabled(config: KubeProxyConfig, version: Version): boolean {
  if (!atLeast(version, 37)) return true;
  if (atLeast(version, 43)) return false;
  return config.featureGates['KubeProxyIPVS'] ?? !atLeast(version, 40);
}

function gateError(gate: string, value: boolean, version: Version): string | undefined {
  if (gate === 'KubeProxyIPVS') {
    if (!atLeast(version, 37)) return `unrecognized feature gate: ${gate}`;
    if (atLeast(version, 43) && value)
      return `cannot set feature gate ${gate} to true, feature is locked to false`;
  }
  if (gate === 'NFTablesProxyMode') {
    if (!atLeast(version, 29)) return `unrecognized feature gate: ${gate}`;
    if (atLeast(version, 33) && !value)
      return `cannot set feature gate ${gate} to false, feature is locked to true`;
  }
  return undefined;
}

/** The `err` of kube-proxy's "command failed" line, or undefined when the config is usable. */
export function validateForVersion(config: KubeProxyConfig, version: Version): string | undefined {
  for (const [gate, value] of Object.entries(config.featureGates)) {
    const err = gateError(gate, value, version);
    if (err !== undefined) return `failed complete: ${err}`;
  }
  const path = 'KubeProxyConfiguration';
  if (config.mode === 'ipvs' && !ipvsEnabled(config, version))
    return `failed validate: ${path}.mode: Unsupported value: "ipvs": supported values: "iptables", "nftables"`;
  if (config.mode === 'nftables') {
    if (!atLeast(version, 29))
      return `failed validate: ${path}.mode: Unsupported value: "nftables": supported values: "iptables", "ipvs"`;
    const gate = config.featureGates['NFTablesProxyMode'] ?? atLeast(version, 31);
    if (!gate)
      return `failed validate: ${path}.mode: Invalid value: "nftables": feature gate NFTablesProxyMode must be enabled`;
  }
  for (const [i, entry] of config.nodePortAddresses.entries()) {
    const keyword = entry === 'primary' || (entry === 'all' && atLeast(version, 38));
    if (!keyword && parseCidr(entry) === undefined)
      return `failed validate: ${path}.nodePortAddresses[${i}]: Invalid value: "${entry}": must be a valid CIDR`;
  }
  return undefined;
}
