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
  // Bolt logs a few debug lines per request: a disabled level costs no formatting.
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...parts: unknown[]): void => {
      if (child.isLevelEnabled(level)) child[level](format(parts));
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
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
