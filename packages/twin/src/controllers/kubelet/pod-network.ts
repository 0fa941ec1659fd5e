// Addresses a pod gets on its node: hostIP is the node's InternalIP; a hostNetwork pod shares it,
// others get an address from the node's podCIDR, as a CNI's host-local IPAM would hand out.

import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';
import { fnv32a } from '../hash.js';

export function hostAddress(node: KubeObject): string {
  const addresses = asArray(asRecord(node['status'])['addresses']).filter(isJsonObject);
  const internal = addresses.find((a) => a['type'] === 'InternalIP');
  const external = addresses.find((a) => a['type'] === 'ExternalIP');
  return asString((internal ?? external)?.['address']);
}

/** An address inside the node's /24 podCIDR (10.244.0.0/24 without one), stable per pod uid. */
export function podAddress(node: KubeObject, uid: string): string {
  const cidr = asString(asRecord(node['spec'])['podCIDR']) || '10.244.0.0/24';
  const base = cidr.split('/')[0]?.split('.') ?? [];
  const prefix = base.length === 4 ? base.slice(0, 3).join('.') : '10.244.0';
  // .0 is the network, .1 the bridge (cni0), .255 broadcast.
  return `${prefix}.${2 + (fnv32a(uid) % 253)}`;
}
