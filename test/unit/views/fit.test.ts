import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { section } from '../../../src/views/blocks.js';
import { fitMessage, fitText, REPLY_LIMITS } from '../../../src/views/fit.js';
import { checkBlocks } from '../../fakes/slack-limits.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('fitText', () => {
  it('leaves text within the limit alone', () => {
    expect(fitText('hello', 5)).toBe('hello');
  });

  it('cuts at the limit with an ellipsis, counted in', () => {
    expect(fitText('abcdefgh', 5)).toBe('abcd…');
    expect(fitText('abcdefgh', 5)).toHaveLength(5);
  });

  it('never keeps half of a surrogate pair', () => {
    for (let max = 2; max < 12; max += 1) {
      const fitted = fitText('😀😀😀😀😀😀', max);
      expect(fitted.length).toBeLessThanOrEqual(max);
      expect(fitted).not.toMatch(LONE_SURROGATE);
    }
  });

  it('never cuts inside an escape such as &amp;', () => {
    const text = 'a&amp;b&lt;c&gt;d'.repeat(10);
    for (let max = 3; max < text.length; max += 1) {
      const fitted = fitText(text, max);
      expect(fitted.length).toBeLessThanOrEqual(max);
      expect(fitted.replace(/…$/, '')).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
  });

  it('never leaves a mention or link open', () => {
    const text = 'ask <@U0123456789> or <#C0123456789|ops> at <https://example.com|docs> now';
    for (let max = 3; max < text.length; max += 1) {
      const head = fitText(text, max).replace(/…$/, '');
      expect(head.lastIndexOf('<') <= head.lastIndexOf('>')).toBe(true);
    }
  });

  it('closes a code block it cut open', () => {
    const fitted = fitText(`before\n\`\`\`\n${'line\n'.repeat(100)}\`\`\``, 60);
    expect(fitted.length).toBeLessThanOrEqual(60);
    expect((fitted.match(/```/g) ?? []).length % 2).toBe(0);
  });

  it('does not end on a zero-width joiner (half an emoji sequence)', () => {
    const family = '👩\u200d👩\u200d👧';
    for (let max = 2; max < 10; max += 1) {
      expect(fitText(family.repeat(3), max).replace(/…$/, '')).not.toMatch(/\u200d$/);
    }
  });
});

describe('fitMessage', () => {
  it('brings text, section texts, block count and total block text within Slack’s limits', () => {
    const blocks: KnownBlock[] = Array.from({ length: 80 }, () => ({
      type: 'section',
      text: { type: 'mrkdwn', text: '😀&amp;'.repeat(1000) },
    }));
    const fitted = fitMessage({ text: '&amp;😀'.repeat(20_000), blocks });
    expect(fitted.text.length).toBeLessThanOrEqual(REPLY_LIMITS.messageText);
    expect(checkBlocks(fitted.blocks)).toBeUndefined();
    expect(JSON.stringify(fitted)).toContain('more blocks not shown');
    expect(JSON.stringify(fitted.blocks)).not.toMatch(/\\ud83d"/);
  });

  it('leaves a message that fits exactly as it is', () => {
    const message = { text: 'ok', blocks: [section('one'), section('two')] };
    expect(fitMessage(message)).toEqual(message);
  });

  it('may keep up to Slack’s own text limit for posted messages', () => {
    const text = 'x'.repeat(50_000);
    expect(fitMessage({ text }, { textMax: REPLY_LIMITS.slackText }).text).toHaveLength(40_000);
  });

  it('cuts headers, fields and context elements to their own limits', () => {
    const fitted = fitMessage({
      text: 't',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(500) } },
        {
          type: 'section',
          fields: Array.from({ length: 12 }, () => ({
            type: 'mrkdwn' as const,
            text: 'f'.repeat(3000),
          })),
        },
        {
          type: 'context',
          elements: Array.from({ length: 12 }, () => ({ type: 'mrkdwn' as const, text: 'c' })),
        },
      ],
    });
    expect(checkBlocks(fitted.blocks)).toBeUndefined();
  });
});
