/** A logger whose lines tests can read, to assert what was (and was not) logged. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.js';

export interface CapturedLog {
  logger: Logger;
  lines(): Record<string, unknown>[];
  text(): string;
}

export function captureLog(level: 'debug' | 'info' = 'debug'): CapturedLog {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return {
    logger: createLogger({ level, destination }),
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
