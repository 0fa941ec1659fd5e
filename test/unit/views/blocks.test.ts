import { describe, expect, it } from 'vitest';
import {
  BUDGET,
  blockTextLength,
  chunkLines,
  escapeKeepingMentions,
  paginate,
  truncate,
} from '../../../src/views/blocks.js';
import { checkBlocks } from '../../fakes/slack-limits.js';

describe('blocks', () => {
  it('truncates with an ellipsis inside the limit', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
  });

  it('escapes control characters but keeps channel, user and group mentions', () => {
    expect(escapeKeepingMentions('<#C0OPS> <@U0A> <!subteam^S0B> <!channel> a & <b>')).toBe(
      '<#C0OPS> <@U0A> <!subteam^S0B> &lt;!channel&gt; a &amp; &lt;b&gt;',
    );
  });

  it('chunks lines without splitting them', () => {
    expect(chunkLines(['aaaa', 'bbbb', 'cc'], 9)).toEqual(['aaaa\nbbbb', 'cc']);
    expect(chunkLines(['x'.repeat(20)], 5)).toEqual(['xxxx…']);
  });

  it('paginates a huge report into messages Slack accepts', () => {
    const lines = Array.from(
      { length: 5000 },
      (_, i) =>
        `• \`node-${i}\` · Ready · kernel 6.1.134-150.224.amzn2023.x86_64 · 10.0.${i % 250}.${i % 200}`,
    );
    const messages = paginate('*Pool big*', lines, 'Pool big');
    expect(messages.length).toBeGreaterThan(30);
    for (const message of messages) {
      expect(checkBlocks(message.blocks ?? [])).toBeUndefined();
      expect(blockTextLength(message.blocks ?? [])).toBeLessThanOrEqual(BUDGET.messageText + 200);
    }
    const joined = messages
      .flatMap((m) => m.blocks ?? [])
      .map((b) => JSON.stringify(b))
      .join('');
    expect(joined).toContain('node-0`');
    expect(joined).toContain('node-4999`');
  });
});
