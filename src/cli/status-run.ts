/** The terminal `status`: read through the real adapters (engine/read-status.ts, which the Slack verb shares), judge with core, print. */
import { statusOf } from '../engine/read-status.js';
import { toUserMessage } from '../errors.js';
import { statusText } from '../views/status-text.js';
import { resolveTerminalCluster, terminalLogger } from './terminal-cluster.js';
import { openTerminalRuns } from './terminal-runs.js';
import { EXIT, type CliIo } from './types.js';

export interface StatusArgs {
  /** Undefined: named after --context (or the kubeconfig's current context). */
  cluster: string | undefined;
  format: 'text' | 'json';
  probe: boolean;
  kubeconfig?: string;
  context?: string;
  usage: string;
}

export async function runStatus(io: CliIo, args: StatusArgs): Promise<number> {
  const resolved = resolveTerminalCluster(io, { ...args, durable: true });
  if (!resolved.ok) return resolved.code;
  const logger = terminalLogger(io);
  const terminal = await openTerminalRuns(
    io,
    resolved.cluster,
    resolved.kubeconfigs,
    logger,
    resolved.runStore,
    false,
  );
  try {
    const status = await statusOf({
      directory: terminal.directory,
      config: resolved.cluster,
      store: terminal.store,
      probe: args.probe,
      now: new Date(),
    });
    io.stdout.write(
      args.format === 'json' ? `${JSON.stringify(status, null, 2)}\n` : statusText(status),
    );
    return status.violations.length === 0 ? EXIT.ok : EXIT.warnings;
  } catch (error) {
    io.stderr.write(`${toUserMessage(error)}\n`);
    return EXIT.failure;
  } finally {
    await terminal.close();
  }
}
