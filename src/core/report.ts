/**
 * The pre-flight report: every check run over the snapshot, a `pass` for each check that found
 * nothing, worst first. The JSON form of {@link PreflightReport} is public (`--format json`).
 */
import type { ClusterOverview } from './cluster-overview.js';
import { compareFindings, finding, type Finding, type Severity } from './findings.js';

export interface PreflightReport {
  cluster: string;
  generatedAt: string;
  kubernetesVersion: string;
  platform: string;
  currentMode: string;
  summary: Record<Severity, number>;
  pools: { name: string; nodes: string[] }[];
  /**
   * False when a node's probes failed (the `node-probes` blockers name them): the report then
   * does not know what those nodes' hosts would have shown.
   */
  complete: boolean;
  /** The nodes whose host facts could not be read, and why. */
  unprobed: { node: string; reason: string }[];
  findings: Finding[];
}

/**
 * Runs each check; a check that throws becomes a `warn` finding naming it, so one bug never
 * hides the rest of the report. Suppressed check ids are skipped entirely.
 */
export function runChecks<C>(
  checks: readonly { id: string; title: string; run(ctx: C): Finding[] }[],
  ctx: C,
  cluster: string,
  suppressed: ReadonlySet<string> = new Set(),
): Finding[] {
  const all: Finding[] = [];
  for (const check of checks) {
    if (suppressed.has(check.id)) continue;
    let found: Finding[];
    try {
      found = check.run(ctx);
    } catch (error) {
      found = [
        finding({
          check: check.id,
          severity: 'warn',
          scope: { kind: 'cluster', name: cluster },
          title: `The ${check.id} check could not run`,
          detail: (error as Error).message,
          remedy:
            'Report this as a proxy-migrate bug with the cluster’s snapshot; check this trap by hand meanwhile.',
        }),
      ];
    }
    all.push(
      ...(found.length > 0
        ? found
        : [
            finding({
              check: check.id,
              severity: 'pass',
              scope: { kind: 'cluster', name: cluster },
              title: check.title,
            }),
          ]),
    );
  }
  return all.sort(compareFindings);
}

export function buildReport(
  overview: ClusterOverview,
  platform: string,
  findings: readonly Finding[],
  generatedAt: string,
  unprobed: readonly { node: string; reason: string }[] = [],
): PreflightReport {
  const summary: Record<Severity, number> = { block: 0, warn: 0, info: 0, pass: 0 };
  for (const f of findings) summary[f.severity] += 1;
  return {
    cluster: overview.cluster,
    generatedAt,
    kubernetesVersion: overview.kubernetesVersion,
    platform,
    currentMode: overview.kubeProxy.mode?.effective ?? 'unknown',
    summary,
    pools: overview.pools.map((pool) => ({
      name: pool.name,
      nodes: overview.nodes.filter((n) => n.pool === pool.name).map((n) => n.name),
    })),
    complete: unprobed.length === 0,
    unprobed: [...unprobed],
    findings: [...findings],
  };
}

export interface GroupedFindings {
  /** Every pool, with the open (non-pass) findings scoped to it or to one of its nodes. */
  pools: { name: string; nodes: string[]; findings: Finding[] }[];
  /** Open findings about the whole cluster. */
  cluster: Finding[];
  passed: Finding[];
}

/** The report's findings arranged the way people read them: per pool, then cluster-wide. */
export function groupFindings(report: PreflightReport): GroupedFindings {
  const poolOfNode = new Map<string, string>();
  for (const pool of report.pools) for (const node of pool.nodes) poolOfNode.set(node, pool.name);
  const open = report.findings.filter((f) => f.severity !== 'pass');
  const poolOf = (f: Finding): string | undefined =>
    f.scope.kind === 'pool'
      ? f.scope.name
      : f.scope.kind === 'node'
        ? poolOfNode.get(f.scope.name)
        : undefined;
  return {
    pools: report.pools.map((pool) => ({
      ...pool,
      findings: open.filter((f) => poolOf(f) === pool.name),
    })),
    // Cluster-scoped findings, and any whose pool or node is not in the report (never dropped).
    cluster: open.filter((f) => poolOf(f) === undefined),
    passed: report.findings.filter((f) => f.severity === 'pass'),
  };
}
