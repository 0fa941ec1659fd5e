/**
 * One pre-flight, whoever asked (Slack or terminal): read the cluster, probe its nodes, run
 * every check, build the report. The run that owns the node shell closes it when it ends.
 */
import { buildCheckContext } from '../checks/context.js';
import { checks } from '../checks/index.js';
import { overview, type ClusterOverview } from '../core/cluster-overview.js';
import { buildReport, runChecks, type PreflightReport } from '../core/report.js';
import type { Platform } from '../core/platform.js';
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
  /** Probe only these nodes (the node pre-flight before a cutover); default every node. */
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

export async function preflightRun(input: PreflightInput): Promise<PreflightOutcome> {
  const { cluster, shell, clock } = input;
  {
    const snapshot = await gatherSnapshot(cluster, clock, {
      listDeadlineMs: PREFLIGHT_GATHER_DEADLINE_MS,
      onNodeProgress: (received) => input.onProgress?.('listing', received, 0),
      ...(shell === undefined
        ? {}
        : {
            probeNodes: (all) => {
              const only = input.probeOnly;
              const nodes = only === undefined ? all : all.filter((n) => only.has(n.metadata.name));
              return probeNodes(shell, nodes, {
                ...(input.probeConcurrency === undefined
                  ? {}
                  : { concurrency: input.probeConcurrency }),
                onProgress: (done, total) => input.onProgress?.('probing', done, total),
              });
            },
          }),
    });
    input.onProgress?.('checking', 0, checks.length);
    const ctx = buildCheckContext(snapshot, input.poolLabel);
    const findings = runChecks(checks, ctx, cluster.name, input.suppressed);
    const ov = overview(snapshot, input.poolLabel);
    const unprobed = snapshot.nodeFacts
      .filter((f) => f.errors.length > 0)
      .map((f) => ({
        node: f.node,
        reason: f.errors.map((e) => `${e.probe} ${e.code}: ${e.message}`).join('; '),
      }));
    const report = buildReport(
      ov,
      ctx.platform.name,
      findings,
      clock.now().toISOString(),
      unprobed,
    );
    return {
      snapshot,
      overview: ov,
      report,
      platform: ctx.platform,
      poolOf: (node) => ctx.poolOf(node),
    };
  }
}
