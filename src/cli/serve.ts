/**
 * Shared by `bot` and `worker`: load configuration, start, and stop gracefully on SIGTERM/SIGINT
 * within the configured grace period (kept below Kubernetes' terminationGracePeriodSeconds).
 */
import { ConfigError, loadConfig, type AppConfig, type ConfigRole } from '../config.js';
import { isAppError, toUserMessage } from '../errors.js';
import { createLogger, type Logger } from '../log.js';
import { installProcessGuards } from './process-guard.js';
import type { RunningProcess } from './runtime.js';
import { EXIT, type CliIo } from './types.js';

export async function serveUntilSignal(
  role: ConfigRole,
  io: CliIo,
  start: (config: AppConfig, logger: Logger) => Promise<RunningProcess>,
): Promise<number> {
  let config: AppConfig;
  try {
    config = loadConfig(io.env, role);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.config;
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, base: { role } });
  // One bad request or callback is logged; it does not take the process (and its jobs) down.
  installProcessGuards(logger);
  let running: RunningProcess;
  try {
    running = await start(config, logger);
  } catch (error) {
    logger.fatal(
      { err: error, code: isAppError(error) ? error.code : undefined },
      'could not start',
    );
    if (isAppError(error)) io.stderr.write(`${toUserMessage(error)}\n`);
    return EXIT.failure;
  }
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        resolve(EXIT.failure);
        return;
      }
      stopping = true;
      logger.info({ signal }, 'signal received, shutting down');
      running.stop().then(
        () => resolve(EXIT.ok),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          resolve(EXIT.failure);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
