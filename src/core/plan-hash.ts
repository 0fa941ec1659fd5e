/**
 * The plan's short hash: people approve a hash, and the cutover refuses to run when the plan it
 * computes again under the cluster lock hashes differently, because kube-proxy changed in between.
 */
import { createHash } from 'node:crypto';
import type { CanaryPlan, CanaryPlanInput } from './canary-plan.js';
import { CANARY_NAME } from './permissions.js';

export interface PlanBasis {
  /** The resourceVersion of each object the plan was computed from (null: it did not exist). */
  resourceVersions: Record<string, string | null>;
  /**
   * What the plan reads from each node: its migration label. Not the node's resourceVersion,
   * which moves with every status report and would expire every approval.
   */
  nodeLabels: Record<string, string | null>;
  oldestKernel: string | null;
}

const rv = (o: { metadata: { resourceVersion?: string } } | null | undefined): string | null =>
  o === null || o === undefined ? null : (o.metadata.resourceVersion ?? '');

/**
 * A DaemonSet's spec generation, not its resourceVersion: the DaemonSet controller rewrites
 * status (and so the resourceVersion) whenever a pod anywhere changes readiness, which on a big
 * cluster would expire every approval; the generation moves only when the spec does.
 */
const gen = (o: { metadata: { generation?: number } } | null | undefined): string | null =>
  o === null || o === undefined ? null : `generation ${o.metadata.generation ?? 0}`;

export function planBasis(input: CanaryPlanInput): PlanBasis {
  const ns = input.original.metadata.namespace ?? 'kube-system';
  const resourceVersions: Record<string, string | null> = {
    [`DaemonSet ${ns}/${input.original.metadata.name}`]: gen(input.original),
    [`DaemonSet ${ns}/${CANARY_NAME}`]: gen(input.canaryDaemonSet),
    [`ConfigMap ${ns}/${CANARY_NAME}`]: rv(input.canaryConfigMap),
  };
  if (input.configMap !== undefined)
    resourceVersions[`ConfigMap ${ns}/${input.configMap.metadata.name}`] = rv(input.configMap);
  return {
    resourceVersions,
    nodeLabels: Object.fromEntries(
      input.nodes.map((n) => [n.metadata.name, n.metadata.labels?.[input.migrationLabel] ?? null]),
    ),
    oldestKernel: input.oldestKernel ?? null,
  };
}

/** Preconditions inside actions: they follow status churn, which the basis deliberately ignores. */
const VOLATILE = new Set(['resourceVersion', 'basedOn']);

/** Keys sorted at every level, so the same objects always serialise the same way. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k, v]) => v !== undefined && !VOLATILE.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, canonical(v)]),
  );
}

/** Seven hex digits of sha256 over the planned actions and the basis they were computed from. */
export function planHash(plan: CanaryPlan, basis: PlanBasis): string {
  const body = JSON.stringify(canonical({ shared: plan.shared, nodes: plan.nodes, basis }));
  return createHash('sha256').update(body).digest('hex').slice(0, 7);
}
