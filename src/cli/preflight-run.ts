/**
 * The terminal pre-flight: resolve the cluster (clusters file or a kubeconfig), run it through
 * the run engine in this process with the real adapters, print the report, and turn its
 * findings into the exit code.
 */
import { checkIds } from '../checks/index.js';
import type { ProbeMode } from '../core/probe-selection.js';
import type { PreflightReport } from '../core/report.js';
import type { ClusterOverview } from '../core/cluster-overview.js';
import { toUserMessage, AppError } from '../errors.js';
import { reportMarkdown } from '../views/preflight-report.js';
import { reportText } from '../views/report-text.js';
import { colourOn } from './colour.js';
import { openTerminalRuns } from './terminal-runs.js';
import { resolveTerminalCluster, terminalLogger } from './terminal-cluster.js';
import { EXIT, type CliIo } from './types.js';

export interface TerminalPreflight {
  /** Undefined: named after --context (or the kubeconfig's current context). */
  cluster: string | undefined;
  format: 'text' | 'md' | 'json';
  failOn: 'block' | 'warn' | 'none';
  concurrency?: number;
  /** Undefined: chosen by fleet size (defaultProbeMode). */
  probeMode?: ProbeMode;
  suppressed: string[];
  kubeconfig?: string;
  context?: string;
  poolLabel?: string;
  probeImage?: string;
  probeNamespace?: string;
}

/** A pre-flight of any size ends within this (lists, then every node probed). */
const PREFLIGHT_DEADLINE_MS = 60 * 60_000;

export async function runTerminalPreflight(io: CliIo, args: TerminalPreflight): Promise<number> {
  const unknown = args.suppressed.filter((id) => !checkIds.includes(id));
  if (unknown.length > 0) {
    io.stderr.write(
      `Unknown check id for --suppress: ${unknown.join(', ')}. Known: ${checkIds.join(', ')}\n`,
    );
    return EXIT.usage;
  }
  const logger = terminalLogger(io);
  const resolved = resolveTerminalCluster(io, {
    cluster: args.cluster,
    ...(args.kubeconfig === undefined ? {} : { kubeconfig: args.kubeconfig }),
    ...(args.context === undefined ? {} : { context: args.context }),
    usage: 'proxy-migrate preflight <cluster>',
  });
  if (!resolved.ok) return resolved.code;
  const poolLabel = args.poolLabel ?? resolved.cluster.poolLabel;
  const cluster = {
    ...resolved.cluster,
    ...(poolLabel === undefined ? {} : { poolLabel }),
    probe: {
      ...resolved.cluster.probe,
      image: args.probeImage ?? resolved.cluster.probe.image,
      namespace: args.probeNamespace ?? resolved.cluster.probe.namespace,
    },
  };
  const terminal = await openTerminalRuns(
    io,
    cluster,
    resolved.kubeconfigs,
    logger,
    undefined,
    false,
  );
  try {
    const id = await terminal.runs.start({
      kind: 'preflight',
      cluster: cluster.name,
      requester: terminal.actor,
      options: { autoRollback: false, dryRun: false },
      facts: {
        suppressed: args.suppressed,
        ...(args.probeMode === undefined ? {} : { probeMode: args.probeMode }),
        probeConcurrency: args.concurrency ?? cluster.probe.concurrency,
      },
    });
    const state = await terminal.runs.waitFor(id, PREFLIGHT_DEADLINE_MS);
    const report = state.facts['report'] as PreflightReport | undefined;
    const overview = state.facts['overview'] as ClusterOverview | undefined;
    if (state.outcome !== 'verified' || report === undefined || overview === undefined) {
      const failed = state.steps.find((s) => s.status === 'failed')?.error;
      io.stderr.write(
        `${toUserMessage(
          new AppError(
            (failed?.code as ConstructorParameters<typeof AppError>[0] | undefined) ?? 'INTERNAL',
            failed?.message ?? state.reason ?? 'The pre-flight stopped.',
            { remedy: failed?.remedy ?? 'Run again with LOG_LEVEL=debug and check the log.' },
          ),
        )}\n`,
      );
      return EXIT.failure;
    }
    const out =
      args.format === 'json'
        ? `${JSON.stringify(report, null, 2)}\n`
        : args.format === 'md'
          ? reportMarkdown(report, overview)
          : reportText(report, overview, {
              colour: colourOn(io, io.stdout),
            });
    io.stdout.write(out);
    if (args.failOn !== 'none' && report.summary.block > 0) return EXIT.blockers;
    if (args.failOn === 'warn' && report.summary.warn > 0) return EXIT.warnings;
    return EXIT.ok;
  } finally {
    await terminal.close();
  }
}
