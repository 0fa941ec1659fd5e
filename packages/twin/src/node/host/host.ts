// A node's host as the twin models it: the facts the Kubernetes API does not show (running
// kernel, host nft, addresses, CPUs, conntrack, sysctls, faults), from the Node plus spec.hosts.
//
// Kernel semantics: `kernel` is always the RUNNING kernel (what `uname -r` prints and what
// kube-proxy's kernel check reads). Without a `kernel` fact it is the Node's
// status.nodeInfo.kernelVersion. The `kernel-reboot-rollback` fault says the host rebooted into an
// older kernel while the kubelet-reported kernelVersion stayed: the Node object is never changed
// here, and if the scenario gives no `kernel` the running kernel defaults to `rollbackKernel`.

import type { HostFault, HostSpec } from '../../scenario/schema.js';
import { asArray, asRecord, asString, type KubeObject } from '../../apimachinery/types.js';
import { ipFamily } from './ip.js';
import { kernelAtLeast } from '../versions.js';

export interface ConntrackFacts {
  readonly count: number;
  readonly max: number;
  /** Per-CPU `invalid` counters for `conntrack -S`; its length is the CPU count printed. */
  readonly invalidPerCpu: readonly number[];
}

export interface HostFacts {
  readonly nodeName: string;
  /** The running kernel (`uname -r`). */
  readonly kernel: string;
  /** status.nodeInfo.kernelVersion, which the kubelet reported and may be stale. */
  readonly nodeKernel: string;
  /** Host nft version, e.g. "1.0.6" (`nft --version` on the host). */
  readonly nft: string;
  /** Host addresses; the first is the primary. */
  readonly addresses: readonly string[];
  /** The Node's IPs as kube-proxy picks them (first InternalIP else ExternalIP, then other family). */
  readonly nodeIPs: readonly string[];
  readonly cpus: number;
  readonly conntrack: ConntrackFacts;
  readonly routeLocalnet: boolean;
  readonly faults: readonly HostFault[];
}

export const rollbackKernel = '5.4.0-216-generic';
export const defaultConntrackMax = 262144;
const fallbackKernel = '6.1.0-31-amd64';

/** `*`, a node name, or `label:<key>=<value>` (`label:<key>` alone matches on presence). */
export function hostMatches(match: string, node: KubeObject): boolean {
  if (match === '*') return true;
  if (match.startsWith('label:')) {
    const selector = match.slice('label:'.length);
    const labels = node.metadata.labels ?? {};
    const eq = selector.indexOf('=');
    if (eq < 0) return Object.hasOwn(labels, selector);
    return labels[selector.slice(0, eq)] === selector.slice(eq + 1);
  }
  return node.metadata.name === match;
}

interface MergedHost {
  nft?: string;
  kernel?: string;
  addresses?: string[];
  count?: number;
  max?: number;
  invalidPerCpu?: number[];
  routeLocalnet?: boolean;
  faults?: HostFault[];
}

/** All matching entries apply in file order; a later entry overrides field by field. */
export function mergeHostSpecs(node: KubeObject, hosts: readonly HostSpec[]): MergedHost {
  const merged: MergedHost = {};
  for (const spec of hosts) {
    if (!hostMatches(spec.match, node)) continue;
    if (spec.nft !== undefined) merged.nft = spec.nft;
    if (spec.kernel !== undefined) merged.kernel = spec.kernel;
    if (spec.addresses !== undefined) merged.addresses = [...spec.addresses];
    if (spec.routeLocalnet !== undefined) merged.routeLocalnet = spec.routeLocalnet;
    if (spec.faults !== undefined) merged.faults = [...spec.faults];
    const ct = spec.conntrack;
    if (ct?.count !== undefined) merged.count = ct.count;
    if (ct?.max !== undefined) merged.max = ct.max;
    if (ct?.invalidPerCpu !== undefined) merged.invalidPerCpu = [...ct.invalidPerCpu];
  }
  return merged;
}

function addressesOfType(node: KubeObject, type: string): string[] {
  return asArray(asRecord(node['status'])['addresses'])
    .map(asRecord)
    .filter((a) => a['type'] === type)
    .map((a) => asString(a['address']))
    .filter((ip) => ipFamily(ip) !== undefined);
}

/** InternalIPs then ExternalIPs, in Node order. */
export function nodeAddressList(node: KubeObject): string[] {
  return [...addressesOfType(node, 'InternalIP'), ...addressesOfType(node, 'ExternalIP')];
}

/** GetNodeHostIPs: the first InternalIP (else ExternalIP), plus the first IP of the other family. */
export function nodeHostIPs(node: KubeObject): string[] {
  const all = nodeAddressList(node);
  const primary = all[0];
  if (primary === undefined) return [];
  const other = all.find((ip) => ipFamily(ip) !== ipFamily(primary));
  return other === undefined ? [primary] : [primary, other];
}

export function nodeCpuCount(node: KubeObject): number {
  const raw = asRecord(asRecord(node['status'])['capacity'])['cpu'];
  const text = typeof raw === 'number' ? String(raw) : asString(raw);
  const cpus = text.endsWith('m') ? Math.floor(Number(text.slice(0, -1)) / 1000) : Number(text);
  return Number.isFinite(cpus) && cpus >= 1 ? cpus : 2;
}

export function nodeKernelVersion(node: KubeObject): string {
  const kv = asString(asRecord(asRecord(node['status'])['nodeInfo'])['kernelVersion']);
  return kv === '' ? fallbackKernel : kv;
}

/** Resolves a node's host facts; `faults` (set at run time) replaces the scenario's list. */
export function resolveHostFacts(
  node: KubeObject,
  hosts: readonly HostSpec[],
  faults?: readonly HostFault[],
): HostFacts {
  const merged = mergeHostSpecs(node, hosts);
  const activeFaults = [...(faults ?? merged.faults ?? [])];
  const nodeKernel = nodeKernelVersion(node);
  const kernel =
    merged.kernel ??
    (activeFaults.includes('kernel-reboot-rollback') ? rollbackKernel : nodeKernel);
  const cpus = nodeCpuCount(node);
  return {
    nodeName: node.metadata.name ?? '',
    kernel,
    nodeKernel,
    nft: merged.nft ?? (kernelAtLeast(kernel, 5, 13) ? '1.0.6' : '0.9.3'),
    addresses: merged.addresses ?? nodeAddressList(node),
    nodeIPs: nodeHostIPs(node),
    cpus,
    conntrack: {
      count: merged.count ?? 0,
      max: merged.max ?? defaultConntrackMax,
      invalidPerCpu: merged.invalidPerCpu ?? Array<number>(cpus).fill(0),
    },
    routeLocalnet: merged.routeLocalnet ?? false,
    faults: activeFaults,
  };
}

/** Host sysctls that change at run time (kube-proxy sets them; nothing reverts them). */
export interface HostSysctls {
  routeLocalnet: boolean;
  tcpBeLiberal: boolean;
  arpIgnore: number;
  arpAnnounce: number;
}

export function initialSysctls(facts: HostFacts): HostSysctls {
  return { routeLocalnet: facts.routeLocalnet, tcpBeLiberal: false, arpIgnore: 0, arpAnnounce: 0 };
}
