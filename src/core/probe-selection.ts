/**
 * Which nodes a fleet pre-flight probes. `all` probes every node; `none` probes nothing (the
 * report then says every host fact is unknown); `sample` probes a few nodes per pool plus every
 * node whose Node object disagrees with its pool's majority on something that changes what the
 * probes would read (kernel, kubelet, OS image, runtime, architecture, readiness, the labels
 * below). A pool is one image and one instance type by construction, so its members' hosts differ
 * where their Node objects do; a node that looks like its pool but is not is caught by the node
 * pre-flight, which probes the node it is about to move in full whatever the fleet mode was.
 */
import type { KubeNode } from './kube.js';
import { isReady } from './nodes.js';

export const probeModes = ['all', 'sample', 'none'] as const;
export type ProbeMode = (typeof probeModes)[number];

/**
 * Fleets up to this many nodes are probed in full by default; bigger ones are sampled. At the
 * API's bounded exec rate a full probe of 500 nodes takes about a minute on a real cluster.
 */
export const FULL_PROBE_MAX_NODES = 500;
/** Nodes probed per pool in `sample` mode, besides the outliers. */
export const SAMPLE_PER_POOL = 3;

export function defaultProbeMode(nodeCount: number): ProbeMode {
  return nodeCount <= FULL_PROBE_MAX_NODES ? 'all' : 'sample';
}

/** Labels whose value changes what a host runs (its image, its machine, its proxy mode). */
export const SIGNATURE_LABELS = [
  'node.kubernetes.io/instance-type',
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'eks.amazonaws.com/nodegroup-image',
  'kubernetes.azure.com/node-image-version',
  'cloud.google.com/gke-os-distribution',
  'proxy-migrate.io/mode',
] as const;

/** The Node object's fields compared against the pool's majority, by name. */
export function nodeSignature(node: KubeNode): Record<string, string> {
  const info = node.status?.nodeInfo ?? {};
  const labels = node.metadata.labels ?? {};
  const fields: Record<string, string> = {
    kernel: info.kernelVersion ?? '',
    kubelet: info.kubeletVersion ?? '',
    osImage: info.osImage ?? '',
    runtime: info.containerRuntimeVersion ?? '',
    architecture: info.architecture ?? '',
    ready: String(isReady(node)),
  };
  for (const key of SIGNATURE_LABELS) fields[`label ${key}`] = labels[key] ?? '';
  return fields;
}

export interface PoolSelection {
  pool: string;
  total: number;
  /** Nodes picked as the pool's sample (evenly spread over the pool's sorted names). */
  sampled: string[];
  /** Nodes probed because their Node object differs from the pool's majority, with how. */
  outliers: { node: string; differs: string[] }[];
}

export interface ProbeSelection {
  mode: ProbeMode;
  /** Every node to probe, sorted by name. */
  nodes: string[];
  /** Per pool: what was sampled and why (empty for `all` and `none`). */
  pools: PoolSelection[];
}

/** The most common value of each field among the pool's nodes (ties: the smallest value). */
function majority(signatures: readonly Record<string, string>[]): Record<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const sig of signatures) {
    for (const [field, value] of Object.entries(sig)) {
      const byValue = counts.get(field) ?? new Map<string, number>();
      byValue.set(value, (byValue.get(value) ?? 0) + 1);
      counts.set(field, byValue);
    }
  }
  const result: Record<string, string> = {};
  for (const [field, byValue] of counts) {
    const best = [...byValue].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    if (best !== undefined) result[field] = best[0];
  }
  return result;
}

/** `count` names spread evenly over `sorted` (first and last included), deterministic. */
function spread(sorted: readonly string[], count: number): string[] {
  if (sorted.length <= count) return [...sorted];
  if (count <= 1) return sorted.slice(0, count);
  const picked = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const name = sorted[Math.round((i * (sorted.length - 1)) / (count - 1))];
    if (name !== undefined) picked.add(name);
  }
  return [...picked];
}

export function selectProbeNodes(
  nodes: readonly KubeNode[],
  poolOf: (node: string) => string,
  mode: ProbeMode,
  perPool: number = SAMPLE_PER_POOL,
): ProbeSelection {
  const names = nodes.map((n) => n.metadata.name).sort();
  if (mode === 'all') return { mode, nodes: names, pools: [] };
  if (mode === 'none') return { mode, nodes: [], pools: [] };
  const byPool = new Map<string, KubeNode[]>();
  for (const node of nodes) {
    const pool = poolOf(node.metadata.name);
    const members = byPool.get(pool);
    if (members === undefined) byPool.set(pool, [node]);
    else members.push(node);
  }
  const pools: PoolSelection[] = [];
  const chosen = new Set<string>();
  for (const [pool, members] of [...byPool].sort((a, b) => a[0].localeCompare(b[0]))) {
    const signatures = members.map((n) => ({ node: n.metadata.name, sig: nodeSignature(n) }));
    const usual = majority(signatures.map((s) => s.sig));
    const outliers = signatures
      .map(({ node, sig }) => ({
        node,
        differs: Object.entries(sig)
          .filter(([field, value]) => usual[field] !== value)
          .map(
            ([field, value]) => `${field} ${value || '(none)'}, pool ${usual[field] || '(none)'}`,
          ),
      }))
      .filter((o) => o.differs.length > 0)
      .sort((a, b) => a.node.localeCompare(b.node));
    const outlierNames = new Set(outliers.map((o) => o.node));
    const typical = members
      .map((n) => n.metadata.name)
      .filter((n) => !outlierNames.has(n))
      .sort();
    const sampled = spread(typical, perPool);
    for (const name of [...sampled, ...outlierNames]) chosen.add(name);
    pools.push({ pool, total: members.length, sampled, outliers });
  }
  return { mode, nodes: names.filter((n) => chosen.has(n)), pools };
}

/** What the fleet probe covered. Nodes it did not probe have unknown host facts. */
export interface ProbeCoverage {
  mode: ProbeMode;
  /** Nodes in the cluster. */
  nodes: number;
  /** Nodes probed (their host facts are in `hosts`, or their errors in `unprobed`). */
  probed: number;
  /** Per pool, in `sample` mode: the sample and the outliers, with how each differs. */
  pools: PoolSelection[];
}
