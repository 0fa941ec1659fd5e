/**
 * The order to cut nodes over in: one canary per pool first (the 2026 Playbook: "one node, then
 * one node pool, then the rest"), so every kernel line and image meets nftables early, then the
 * rest of each pool, and the nodes pre-flight blocks last, marked with why.
 */
import type { KubeNode } from './kube.js';
import { isReady } from './nodes.js';
import type { Pool } from './pools.js';

export interface OrderedNode {
  node: string;
  pool: string;
  /** `canary`: the first of its pool; `pool`: after every pool has its canary; `blocked`: not yet. */
  step: 'canary' | 'pool' | 'blocked';
  /** Why a blocked node cannot go (the blocking findings' titles). */
  blockedBy: string[];
}

/** A node the canary can be judged on: Ready and schedulable. */
const healthy = (node: KubeNode): boolean => isReady(node) && node.spec?.unschedulable !== true;

/** The control plane goes last among the pools: its canary should not be the first one. */
const CONTROL_PLANE = 'control-plane';

export function suggestOrder(
  nodes: readonly KubeNode[],
  pools: readonly Pool[],
  blockedNodes: ReadonlyMap<string, readonly string[]>,
): OrderedNode[] {
  const poolOf = new Map<string, string>();
  for (const pool of pools) for (const n of pool.nodes) poolOf.set(n.metadata.name, pool.name);
  const names = [
    ...new Set([
      ...pools.map((p) => p.name),
      ...nodes.map((n) => poolOf.get(n.metadata.name) ?? 'no pool'),
    ]),
  ];
  const order = [
    ...names.filter((p) => p !== CONTROL_PLANE),
    ...names.filter((p) => p === CONTROL_PLANE),
  ];
  const byName = (a: KubeNode, b: KubeNode): number =>
    a.metadata.name.localeCompare(b.metadata.name);
  const members = (pool: string): KubeNode[] =>
    nodes.filter((n) => (poolOf.get(n.metadata.name) ?? 'no pool') === pool).sort(byName);
  const isBlocked = (n: KubeNode): boolean => (blockedNodes.get(n.metadata.name)?.length ?? 0) > 0;

  const canaries: OrderedNode[] = [];
  const rest: OrderedNode[] = [];
  const blocked: OrderedNode[] = [];
  for (const pool of order) {
    const all = members(pool);
    const free = all.filter((n) => !isBlocked(n));
    const canary = free.find(healthy) ?? free[0];
    for (const n of free) {
      const entry: OrderedNode = {
        node: n.metadata.name,
        pool,
        step: n === canary ? 'canary' : 'pool',
        blockedBy: [],
      };
      (n === canary ? canaries : rest).push(entry);
    }
    for (const n of all.filter(isBlocked)) {
      blocked.push({
        node: n.metadata.name,
        pool,
        step: 'blocked',
        blockedBy: [...(blockedNodes.get(n.metadata.name) ?? [])],
      });
    }
  }
  return [...canaries, ...rest, ...blocked];
}
