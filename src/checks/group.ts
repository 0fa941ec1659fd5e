/**
 * Node-level trouble reported per pool, the unit people act on ("pool legacy: 2 of 2 nodes on
 * kernel 5.4"): one finding per affected pool, the nodes as its subjects.
 */
import type { Finding } from '../core/findings.js';
import type { CheckContext } from './types.js';

export interface PoolGroup {
  pool: string;
  /** Affected nodes in this pool, sorted. */
  nodes: string[];
  /** All nodes in the pool. */
  total: number;
}

/** Groups affected node names by pool (pools in report order) and builds one finding each. */
export function perPool(
  ctx: CheckContext,
  affected: readonly string[],
  build: (group: PoolGroup) => Finding,
): Finding[] {
  const byPool = new Map<string, string[]>();
  for (const node of affected) {
    const pool = ctx.poolOf(node);
    const list = byPool.get(pool);
    if (list) list.push(node);
    else byPool.set(pool, [node]);
  }
  return ctx.pools
    .filter((pool) => byPool.has(pool.name))
    .map((pool) =>
      build({
        pool: pool.name,
        nodes: (byPool.get(pool.name) ?? []).sort(),
        total: pool.nodes.length,
      }),
    );
}

/** `2 of 2 nodes` / `1 of 12 nodes (blue-3)`: counts with names when few. */
export function countNodes(group: PoolGroup, maxNames = 5): string {
  const names = group.nodes.length <= maxNames ? ` (${group.nodes.join(', ')})` : '';
  return `${group.nodes.length} of ${group.total} node${group.total === 1 ? '' : 's'}${names}`;
}

/** What `byNode` holds for the group's nodes, in the group's order (nodes without one skipped). */
export function entriesOf<T>(group: PoolGroup, byNode: ReadonlyMap<string, T>): T[] {
  return group.nodes.flatMap((n) => {
    const entry = byNode.get(n);
    return entry === undefined ? [] : [entry];
  });
}

/** The group narrowed to some of its nodes, so {@link countNodes} says "2 of 5 nodes". */
export function subGroup(group: PoolGroup, members: readonly { node: string }[]): PoolGroup {
  return { ...group, nodes: members.map((m) => m.node) };
}
