/** Shutdown steps under deadlines: a step that hangs is cut short and logged, never waited on forever. */
import type { Server } from 'node:http';
import { closeServer } from '../adapters/http/server.js';
import { withDeadline } from '../core/deadline.js';
import type { Logger } from '../log.js';

/** Each shutdown step besides the jobs' grace period gets this long before it is cut short. */
export const CLOSE_STEP_MS = 3_000;

/** Runs one shutdown step under a deadline; resolves false (and logs) when it had to give up. */
export async function closeStep(
  logger: Logger,
  what: string,
  ms: number,
  close: () => Promise<unknown>,
): Promise<boolean> {
  const started = performance.now();
  try {
    await withDeadline(close(), ms, () => new Error(`${what} did not close within ${ms} ms`));
    logger.debug({ step: what, ms: Math.round(performance.now() - started) }, 'shutdown step done');
    return true;
  } catch (error) {
    logger.warn({ err: error, step: what }, 'shutdown step cut short');
    return false;
  }
}

export async function stopServer(server: Server, logger: Logger): Promise<void> {
  if (!(await closeStep(logger, 'http server', CLOSE_STEP_MS, () => closeServer(server)))) {
    server.closeAllConnections();
  }
}
