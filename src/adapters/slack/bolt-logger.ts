/**
 * Bolt and the Web API client log through this wrapper, so their lines are structured pino lines
 * with the same secret scrubbing as ours (their messages are free-form strings).
 */
import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from '../../log.js';

const toPino: Record<LogLevel, string> = {
  [LogLevel.DEBUG]: 'debug',
  [LogLevel.INFO]: 'info',
  [LogLevel.WARN]: 'warn',
  [LogLevel.ERROR]: 'error',
};

function format(parts: unknown[]): string {
  return parts
    .map((part) =>
      typeof part === 'string' ? part : part instanceof Error ? part.message : JSON.stringify(part),
    )
    .join(' ');
}

export function slackLogger(logger: Logger, name = 'slack'): SlackLogger {
  let child = logger.child({ component: name });
  return {
    debug: (...parts: unknown[]) => child.debug(format(parts)),
    info: (...parts: unknown[]) => child.info(format(parts)),
    warn: (...parts: unknown[]) => child.warn(format(parts)),
    error: (...parts: unknown[]) => child.error(format(parts)),
    // Our own LOG_LEVEL governs; Bolt's attempts to change it are ignored on purpose.
    setLevel: () => undefined,
    getLevel: () => {
      const entry = Object.entries(toPino).find(([, level]) => level === child.level);
      return (entry?.[0] as LogLevel | undefined) ?? LogLevel.INFO;
    },
    setName: (next: string) => {
      child = logger.child({ component: next });
    },
  };
}
