/**
 * `cutover` and `rollback` in a terminal: the run engine in this process, run state in Redis or
 * files, progress on stderr, the result on stdout (text or the JSON object), and the outcome as
 * the exit code. A confirmation needs a terminal: without one, `--yes` is required.
 */
import type { Outcome, RunState } from '../core/run-state.js';
import type { RunKind } from '../core/runbook.js';
import { toUserMessage } from '../errors.js';
import { runResultJson, runResultText } from '../views/run-result.js';
import { resolveTerminalCluster, terminalLogger } from './terminal-cluster.js';
import { openTerminalRuns } from './terminal-runs.js';
import { EXIT, type CliIo } from './types.js';

export interface NodeRunArgs {
  kind: Extract<RunKind, 'cutover' | 'rollback'>;
  /** Undefined: named after --context (or the kubeconfig's current context). */
  cluster: string | undefined;
  node: string;
  yes: boolean;
  dryRun: boolean;
  autoRollback: boolean;
  format: 'text' | 'json';
  kubeconfig?: string;
  context?: string;
}

/** A run's whole life: pre-flight, plan, swap, verification and a possible rollback. */
const RUN_DEADLINE_MS = 60 * 60_000;

export const exitFor: Record<Outcome, number> = {
  verified: EXIT.ok,
  refused: EXIT.refused,
  'rolled-back': EXIT.rolledBack,
  'needs-attention': EXIT.needsAttention,
  failed: EXIT.failure,
};

export function printResult(io: CliIo, state: RunState, format: 'text' | 'json'): number {
  io.stdout.write(
    format === 'json' ? `${JSON.stringify(runResultJson(state), null, 2)}\n` : runResultText(state),
  );
  return state.outcome === undefined ? EXIT.failure : exitFor[state.outcome];
}

export async function runNodeCommand(io: CliIo, args: NodeRunArgs, usage: string): Promise<number> {
  const stdin = io.stdin ?? process.stdin;
  if (!args.yes && !args.dryRun && stdin.isTTY !== true) {
    io.stderr.write(
      `${args.kind} asks for confirmation, and there is no terminal to ask in: pass --yes.\n\nUsage: ${usage}\n`,
    );
    return EXIT.usage;
  }
  const resolved = resolveTerminalCluster(io, {
    cluster: args.cluster,
    ...(args.kubeconfig === undefined ? {} : { kubeconfig: args.kubeconfig }),
    ...(args.context === undefined ? {} : { context: args.context }),
    usage,
    durable: true,
  });
  if (!resolved.ok) return resolved.code;
  const logger = terminalLogger(io);
  const terminal = await openTerminalRuns(
    { ...io, stdin },
    resolved.cluster,
    resolved.kubeconfigs,
    logger,
    resolved.runStore,
    true,
  );
  try {
    const id = await terminal.runs.start({
      kind: args.kind,
      cluster: resolved.cluster.name,
      node: args.node,
      requester: terminal.actor,
      options: {
        autoRollback: args.autoRollback && resolved.cluster.autoRollback,
        dryRun: args.dryRun,
        ...(args.yes ? { preApproved: terminal.actor } : {}),
      },
    });
    io.stderr.write(`run ${id} (state: ${terminal.store.description})\n`);
    const state = await terminal.runs.waitFor(id, RUN_DEADLINE_MS);
    return printResult(io, state, args.format);
  } catch (error) {
    logger.error({ err: error }, 'the run could not be driven to its end');
    io.stderr.write(`${toUserMessage(error)}\n`);
    return EXIT.failure;
  } finally {
    await terminal.close();
  }
}
