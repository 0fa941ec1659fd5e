/**
 * Node-level trouble reported per pool, the unit people act on ("pool legacy: 2 of 2 nodes on
 * kernel 5.4"): one finding per affected pool, the nodes as its subjects.
 */
import { finding, type Finding, type Severity } from '../core/findings.js';
import { plural } from './support/text.js';
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

/** What one pool finding says, section by section, in the order the sections were added. */
export interface PoolParts {
  /** Joined with `; ` into the title. */
  titles: string[];
  /** Joined with spaces into the detail. */
  details: string[];
  /** Joined with spaces into the remedy; none when empty. */
  remedies: string[];
}

export function poolParts(): PoolParts {
  return { titles: [], details: [], remedies: [] };
}

/** The finding for one pool: the group's nodes as subjects, the parts joined. */
export function poolFinding(
  check: string,
  severity: Severity,
  group: PoolGroup,
  parts: PoolParts,
  commands: string[],
): Finding {
  return finding({
    check,
    severity,
    scope: { kind: 'pool', name: group.pool },
    subjects: group.nodes,
    title: parts.titles.join('; '),
    detail: parts.details.join(' '),
    ...(parts.remedies.length > 0 ? { remedy: parts.remedies.join(' ') } : {}),
    commands,
  });
}

/**
 * The one cluster-wide note of a check that reads the node probes when they were skipped
 * (`<what>: node probes were skipped on 3 nodes`); undefined when they ran or there are no nodes.
 */
export function probesSkipped(
  ctx: CheckContext,
  check: string,
  note: { what: string; detail: string; commands: string[] },
): Finding | undefined {
  const { nodes, nodeFacts, cluster } = ctx.snapshot;
  if (nodes.length === 0 || nodeFacts.length > 0) return undefined;
  return finding({
    check,
    severity: 'info',
    scope: { kind: 'cluster', name: cluster },
    title: `${note.what}: node probes were skipped on ${plural(nodes.length, 'node')}`,
    detail: note.detail,
    commands: note.commands,
  });
}
