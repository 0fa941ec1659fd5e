import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets } from '../../src/log.js';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('logging', () => {
  it('redacts secret-bearing keys and token-like strings wherever they appear', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', destination: out.stream });
    logger.info(
      {
        token: 'xoxb-secret-1',
        body: { response_url: 'https://hooks.slack.com/commands/T1/2/abc' },
        slack: { signingSecret: 'abc123' },
      },
      'posting with xoxb-123-456-secret to https://hooks.slack.com/actions/T0/1/xyz',
    );
    logger.error({ err: new Error('auth failed for xapp-1-A0-secret') }, 'boom');
    const text = out.text();
    expect(text).not.toMatch(/xoxb-|xapp-|hooks\.slack\.com|abc123/);
    expect(text).toContain('[Redacted]');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      level: 'info',
      service: 'proxy-migrate',
      token: '[Redacted]',
    });
  });

  it('scrubs custom response URLs of the Slack shape too', () => {
    expect(scrubSecrets('see http://127.0.0.1:9/commands/T0TEST/123/abc now')).toBe(
      'see [Redacted] now',
    );
  });
});
