/**
 * The root pino logger. Secrets never reach a log line: known secret-bearing keys are redacted
 * by path, and any string that looks like a Slack token or a response/webhook URL is masked,
 * wherever it appears (Bolt and the Web API client log free-form strings).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger } from 'pino';

const SECRET_KEYS = [
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'signing_secret',
  'response_url',
  'responseUrl',
  'authorization',
  'password',
  'client_secret',
];

const redactPaths = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  ...SECRET_KEYS.map((key) => `*.*.${key}`),
  'req.headers.authorization',
  'req.headers["x-slack-signature"]',
  'headers.authorization',
];

// Slack tokens (xoxb-, xoxp-, xapp-, …), response URLs and incoming-webhook URLs.
const SECRET_PATTERNS: RegExp[] = [
  /\bx(?:ox[abposr]|app)-[A-Za-z0-9-]+/g,
  /https:\/\/hooks\.slack(?:-gov)?\.com\/[^\s"']+/g,
  /https?:\/\/[^\s"']*\/(?:commands|actions)\/T[A-Z0-9]+\/[^\s"']+/g,
];

/** Masks token-like and response-URL-like substrings in a free-form string. */
export function scrubSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((out, pattern) => out.replace(pattern, '[Redacted]'), text);
}

export interface LoggerOptions {
  level: LogLevel;
  /**
   * Where lines go; defaults to stdout, written asynchronously. Tests pass a stream to read what
   * was logged.
   */
  destination?: DestinationStream;
  base?: Record<string, unknown>;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'proxy-migrate', ...options.base },
      redact: { paths: redactPaths, censor: '[Redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((arg: unknown) =>
            typeof arg === 'string' ? scrubSecrets(arg) : arg,
          );
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
      serializers: {
        err: (error: unknown) => {
          const serialized = pino.stdSerializers.err(error as Error);
          return {
            ...serialized,
            message: scrubSecrets(serialized.message),
            stack: serialized.stack === undefined ? undefined : scrubSecrets(serialized.stack),
          };
        },
      },
    },
    options.destination ?? stdoutAsync(),
  );
}

/**
 * stdout without blocking the event loop: pino's default writes each line synchronously, which
 * under a burst of Slack requests put a write(2) per log line (three a request) between one ack
 * and the next, and blocks outright when the pipe to the container runtime is full. Lines written
 * while a write is in flight go out together in the next one; pino flushes what is left when the
 * process exits.
 */
function stdoutAsync(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}
