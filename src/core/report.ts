/**
 * The pre-flight report: every check run over the snapshot, a `pass` for each check that found
 * nothing, worst first. The JSON form of {@link PreflightReport} is public (`--format json`):
 * its shape is report-schema.ts, published as docs/report.schema.json; a change that breaks a
 * reader bumps REPORT_SCHEMA_VERSION.
 */
import type { ClusterOverview } from './cluster-overview.js';
import { compareFindings, finding, type Finding, type Severity } from './findings.js';
import type { HostAddress } from './host-addresses.js';
import type { PlatformKind } from './platform.js';
import type { ProbeCoverage } from './probe-selection.js';
import type { NodeFacts } from './snapshot.js';

export const REPORT_SCHEMA_VERSION = 1;

/** One probed node's host facts as data: the evidence behind the host-level findings. */
export interface HostEvidence {
  node: string;
  pool: string;
  /** `uname -r`. */
  kernel?: string;
  /** The host's own nft (`nft --version`); `missing`: the host has none. */
  nft: { status: 'present'; version: string } | { status: 'missing' } | { status: 'unknown' };
  conntrack?: { count?: number; max?: number; invalidPerCpu: number[] };
  /** `ip -j addr`, loopback, link-local, kube-ipvs0 and CNI interfaces left out. */
  addresses?: HostAddress[];
  /** kube-proxy's /proxyMode. */
  proxyMode?: string;
  errors: { probe: string; code: string; message: string }[];
}

export interface PreflightReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  cluster: string;
  generatedAt: string;
  kubernetesVersion: string;
  /** Stable slug (`kubeadm`, `eks`, …); `platformName` is for people. */
  platform: PlatformKind;
  platformName: string;
  currentMode: string;
  summary: Record<Severity, number>;
  pools: { name: string; nodes: string[] }[];
  /**
   * False when a node's probes failed (the `node-probes` blockers name them): the report then
   * does not know what those nodes' hosts would have shown.
   */
  complete: boolean;
  /** Which nodes were probed, and how they were chosen. */
  probing: ProbeCoverage;
  /** The nodes whose host facts could not be read, and why. */
  unprobed: { node: string; reason: string }[];
  /** Every probed node's host facts, by node name. */
  hosts: HostEvidence[];
  findings: Finding[];
}

export function hostEvidence(facts: NodeFacts, pool: string): HostEvidence {
  return {
    node: facts.node,
    pool,
    ...(facts.kernel === undefined ? {} : { kernel: facts.kernel }),
    nft:
      facts.nftVersion !== undefined
        ? { status: 'present', version: facts.nftVersion }
        : facts.hostNftMissing === true
          ? { status: 'missing' }
          : { status: 'unknown' },
    ...(facts.conntrack === undefined ? {} : { conntrack: facts.conntrack }),
    ...(facts.addresses === undefined ? {} : { addresses: facts.addresses }),
    ...(facts.proxyMode === undefined ? {} : { proxyMode: facts.proxyMode }),
    errors: facts.errors,
  };
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

export interface ReportProbing {
  coverage: ProbeCoverage;
  facts: readonly NodeFacts[];
}

export function buildReport(
  overview: ClusterOverview,
  platform: { kind: PlatformKind; name: string },
  findings: readonly Finding[],
  generatedAt: string,
  probing: ReportProbing = {
    coverage: { mode: 'none', nodes: overview.nodes.length, probed: 0, pools: [] },
    facts: [],
  },
): PreflightReport {
  const summary: Record<Severity, number> = { block: 0, warn: 0, info: 0, pass: 0 };
  for (const f of findings) summary[f.severity] += 1;
  const poolOf = new Map(overview.nodes.map((n) => [n.name, n.pool]));
  const unprobed = probing.facts
    .filter((f) => f.errors.length > 0)
    .map((f) => ({
      node: f.node,
      reason: f.errors.map((e) => `${e.probe} ${e.code}: ${e.message}`).join('; '),
    }));
  const { coverage } = probing;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    cluster: overview.cluster,
    generatedAt,
    kubernetesVersion: overview.kubernetesVersion,
    platform: platform.kind,
    platformName: platform.name,
    currentMode: overview.kubeProxy.mode?.effective ?? 'unknown',
    summary,
    pools: overview.pools.map((pool) => ({
      name: pool.name,
      nodes: overview.nodes.filter((n) => n.pool === pool.name).map((n) => n.name),
    })),
    // Unknown never passes: a node not probed (sampled out, or --probe none) leaves it incomplete.
    complete: unprobed.length === 0 && coverage.probed === coverage.nodes,
    probing: coverage,
    unprobed,
    hosts: probing.facts.map((f) => hostEvidence(f, poolOf.get(f.node) ?? 'unknown')),
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
