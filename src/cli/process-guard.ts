/**
 * The last line of defence of a long-running process (bot, worker): a promise rejection nobody
 * handled, or an exception thrown from a callback, is logged as one structured line and the
 * process keeps serving. Without it, one malformed request that slipped past every check took
 * the bot and its worker down together. Errors are logged by type, message, code and stack only:
 * SDK errors carry whole requests as properties.
 */
import type { Logger } from '../log.js';

function describe(reason: unknown): Error {
  if (!(reason instanceof Error))
    return new Error(`non-error rejection: ${String(reason).slice(0, 200)}`);
  const safe = new Error(reason.message);
  safe.name = reason.name;
  if (reason.stack !== undefined) safe.stack = reason.stack;
  const code = (reason as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') Object.assign(safe, { code });
  return safe;
}

/** Installs the handlers on `proc`; the returned function removes them (on shutdown, in tests). */
export function installProcessGuards(
  logger: Logger,
  proc: Pick<NodeJS.Process, 'on' | 'off'> = process,
): () => void {
  const onRejection = (reason: unknown): void => {
    logger.error(
      { err: describe(reason), event: 'unhandledRejection' },
      'unhandled promise rejection; still serving',
    );
  };
  const onException = (error: Error, origin: string): void => {
    logger.error({ err: describe(error), event: origin }, 'uncaught exception; still serving');
  };
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  return () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
  };
}
