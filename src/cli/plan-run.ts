/**
 * The terminal `plan`: what proxy-migrate would create or change, computed from the live
 * objects, every write sent as a server-side dry run (nothing is persisted), unified diffs, the
 * short hash people approve, and a suggested node order from an API-only pre-flight (one canary
 * per pool first, blocked nodes last and marked). Nothing is written. The computation is
 * engine/plan-report.ts, which the Slack `plan` verb calls too.
 */
import { KubeClusterDirectory } from '../adapters/kubernetes/directory.js';
import { planAccepted } from '../core/plan-result.js';
import { planReport } from '../engine/plan-report.js';
import { toUserMessage } from '../errors.js';
import { systemClock } from '../ports/clock.js';
import { planText } from '../views/plan-text.js';
import { resolveTerminalCluster, terminalLogger } from './terminal-cluster.js';
import { EXIT, type CliIo } from './types.js';

export interface PlanArgs {
  /** Undefined: named after --context (or the kubeconfig's current context). */
  cluster: string | undefined;
  node?: string;
  format: 'text' | 'json';
  kubeconfig?: string;
  context?: string;
  usage: string;
}

export async function runPlan(io: CliIo, args: PlanArgs): Promise<number> {
  const resolved = resolveTerminalCluster(io, args);
  if (!resolved.ok) return resolved.code;
  const logger = terminalLogger(io);
  const directory = new KubeClusterDirectory(
    { clusters: [resolved.cluster], defaultKubeconfigs: resolved.kubeconfigs },
    logger,
  );
  const cluster = directory.get(resolved.cluster.name);
  try {
    const result = await planReport({
      cluster,
      config: resolved.cluster,
      ...(args.node === undefined ? {} : { node: args.node }),
      clock: systemClock,
    });
    if ('problem' in result) {
      io.stderr.write(`Cannot plan ${resolved.cluster.name}: ${result.problem}\n`);
      return EXIT.refused;
    }
    io.stdout.write(
      args.format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : planText(result),
    );
    return planAccepted(result) ? EXIT.ok : EXIT.refused;
  } catch (error) {
    io.stderr.write(`${toUserMessage(error)}\n`);
    return EXIT.failure;
  }
}
