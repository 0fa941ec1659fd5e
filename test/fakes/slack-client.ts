import { LogLevel, WebClient, type Logger, type WebClientOptions } from '@slack/web-api';
import type { FakeSlack } from './fake-slack.js';

/**
 * A real WebClient aimed at the fake. Retries are off so injected failures surface at once instead
 * of after the SDK's thirty-minute backoff, and logs are captured rather than printed because
 * WebClient logs every `[ERROR]` line that Slack returns for refused blocks.
 */

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

export interface CapturingLogger extends Logger {
  readonly entries: LogEntry[];
}

export function capturingLogger(): CapturingLogger {
  let level = LogLevel.DEBUG;
  const entries: LogEntry[] = [];
  const capture =
    (at: LogEntry['level']) =>
    (...msg: unknown[]): void => {
      entries.push({ level: at, message: msg.map((part) => String(part)).join(' ') });
    };
  return {
    entries,
    debug: capture('debug'),
    info: capture('info'),
    warn: capture('warn'),
    error: capture('error'),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

export function fakeSlackClient(
  fake: FakeSlack,
  options: WebClientOptions = {},
  token: string = fake.botToken,
): WebClient {
  return new WebClient(token, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    logger: capturingLogger(),
    ...options,
  });
}
