/**
 * One pre-flight, whoever asked (Slack or terminal): read the cluster, probe its nodes, run
 * every check, build the report. The run that owns the node shell closes it when it ends.
 */
import { buildCheckContext } from '../checks/context.js';
import { checks } from '../checks/index.js';
import { overview, type ClusterOverview } from '../core/cluster-overview.js';
import { buildReport, runChecks, type PreflightReport } from '../core/report.js';
import type { Platform } from '../core/platform.js';
import { isReady } from '../core/nodes.js';
import { poolOf } from '../core/pools.js';
import {
  defaultProbeMode,
  selectProbeNodes,
  type ProbeCoverage,
  type ProbeMode,
  type ProbeSelection,
} from '../core/probe-selection.js';
import type { ClusterSnapshot } from '../core/snapshot.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterPort } from '../ports/cluster.js';
import type { NodeShell } from '../ports/node-shell.js';
import { PREFLIGHT_GATHER_DEADLINE_MS } from '../runbooks/preflight.js';
import { gatherSnapshot } from './gather.js';
import { probeNodes } from './probe-nodes.js';

export type PreflightPhase = 'listing' | 'probing' | 'checking';

export interface PreflightInput {
  cluster: ClusterPort;
  /** Absent: report from the API alone, without host facts. */
  shell?: NodeShell;
  clock: Clock;
  poolLabel?: string;
  suppressed?: ReadonlySet<string>;
  probeConcurrency?: number;
  /**
   * Which nodes the fleet pre-flight probes; default by fleet size (defaultProbeMode). Without a
   * shell nothing is probed, whatever this says.
   */
  probeMode?: ProbeMode;
  /**
   * Probe exactly these nodes, in full (the node pre-flight before a cutover): the fleet mode
   * and its sampling do not apply, so a sample never stands in for the node being moved.
   */
  probeOnly?: ReadonlySet<string>;
  onProgress?: (phase: PreflightPhase, done: number, total: number) => void;
}

export interface PreflightOutcome {
  snapshot: ClusterSnapshot;
  overview: ClusterOverview;
  report: PreflightReport;
  platform: Platform;
  poolOf: (node: string) => string;
}

/** The nodes a pre-flight probes: exactly `probeOnly`, else the fleet mode's selection. */
export function probeSelection(
  nodes: ClusterSnapshot['nodes'],
  input: Pick<PreflightInput, 'probeMode' | 'probeOnly' | 'poolLabel' | 'shell'>,
): ProbeSelection {
  const only = input.probeOnly;
  if (only !== undefined) {
    const names = nodes.map((n) => n.metadata.name).filter((n) => only.has(n));
    return { mode: 'all', nodes: names.sort(), pools: [] };
  }
  const mode =
    input.shell === undefined ? 'none' : (input.probeMode ?? defaultProbeMode(nodes.length));
  const pools = new Map(nodes.map((n) => [n.metadata.name, poolOf(n, input.poolLabel)]));
  return selectProbeNodes(nodes, (name) => pools.get(name) ?? 'unknown', mode);
}

export async function preflightRun(input: PreflightInput): Promise<PreflightOutcome> {
  const { cluster, shell, clock } = input;
  let selection: ProbeSelection = { mode: 'none', nodes: [], pools: [] };
  const snapshot = await gatherSnapshot(cluster, clock, {
    listDeadlineMs: PREFLIGHT_GATHER_DEADLINE_MS,
    onNodeProgress: (received) => input.onProgress?.('listing', received, 0),
    ...(shell === undefined
      ? {}
      : {
          probeNodes: (all) => {
            selection = probeSelection(all, input);
            const chosen = new Set(selection.nodes);
            const nodes = all.filter((n) => chosen.has(n.metadata.name));
            // NotReady nodes are reported, not exec'd into: only Ready ones need a probe pod.
            const ready = nodes.filter(isReady).map((n) => n.metadata.name);
            shell.prepare?.(ready, { allNodes: ready.length === all.length });
            return probeNodes(shell, nodes, {
              ...(input.probeConcurrency === undefined
                ? {}
                : { concurrency: input.probeConcurrency }),
              onProgress: (done, total) => input.onProgress?.('probing', done, total),
            });
          },
        }),
  });
  const coverage: ProbeCoverage = {
    mode: selection.mode,
    nodes: snapshot.nodes.length,
    probed: snapshot.nodeFacts.length,
    pools: selection.pools,
  };
  // The node pre-flight reads one node on purpose: the rest are not "unprobed" there.
  const probed: ClusterSnapshot =
    input.probeOnly === undefined ? { ...snapshot, probing: coverage } : snapshot;
  input.onProgress?.('checking', 0, checks.length);
  const ctx = buildCheckContext(probed, input.poolLabel);
  const findings = runChecks(checks, ctx, cluster.name, input.suppressed);
  const ov = overview(probed, input.poolLabel);
  const report = buildReport(ov, ctx.platform, findings, clock.now().toISOString(), {
    coverage,
    facts: snapshot.nodeFacts,
  });
  return {
    snapshot: probed,
    overview: ov,
    report,
    platform: ctx.platform,
    poolOf: (node) => ctx.poolOf(node),
  };
}
