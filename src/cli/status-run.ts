/** The terminal `status`: read through the real adapters, judge with core, print. */
import { newRunId } from '../engine/run-id.js';
import { readStatus } from '../engine/read-status.js';
import { toUserMessage } from '../errors.js';
import { statusText } from '../views/status-text.js';
import { resolveTerminalCluster, terminalLogger } from './terminal-cluster.js';
import { openTerminalRuns } from './terminal-runs.js';
import { EXIT, type CliIo } from './types.js';

export interface StatusArgs {
  cluster: string;
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
  const shell = args.probe
    ? terminal.directory.nodeShell(resolved.cluster.name, newRunId('st', new Date()))
    : undefined;
  try {
    const status = await readStatus({
      cluster: terminal.directory.get(resolved.cluster.name),
      config: resolved.cluster,
      ...(shell === undefined ? {} : { shell }),
      store: terminal.store,
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
    await shell?.close();
    await terminal.close();
  }
}
