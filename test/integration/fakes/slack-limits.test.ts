import { describe, expect, it } from 'vitest';
import { blockTextLength, checkBlocks, validateBlocks } from '../../fakes/slack-limits.js';

type Block = Record<string, unknown>;

const plain = (text: string): Block => ({ type: 'plain_text', text });
const section = (text: string): Block => ({ type: 'section', text: { type: 'mrkdwn', text } });
const header = (length: number): Block => ({ type: 'header', text: plain('h'.repeat(length)) });
const fields = (count: number, length: number): Block => ({
  type: 'section',
  fields: Array.from({ length: count }, () => ({ type: 'mrkdwn', text: 'f'.repeat(length) })),
});
const buttons = (type: string, count: number): Block => ({
  type,
  elements: Array.from({ length: count }, (_, i) => ({
    type: 'button',
    action_id: `b${i}`,
    text: plain('b'),
  })),
});
/** A button in a section accessory: the limits apply outside actions blocks too. */
const valued = (length: number): Block => ({
  ...section('s'),
  accessory: { type: 'button', action_id: 'v', text: plain('v'), value: 'v'.repeat(length) },
});
const confirmed = (title: number, text: number): Block => ({
  type: 'actions',
  elements: [
    {
      type: 'button',
      action_id: 'go',
      text: plain('Go'),
      confirm: {
        title: plain('c'.repeat(title)),
        text: plain('c'.repeat(text)),
        confirm: plain('Yes'),
        deny: plain('No'),
      },
    },
  ],
});
const blockId = (length: number): Block => ({ ...section('a'), block_id: 'x'.repeat(length) });

describe('Block Kit limits', () => {
  it.each([
    { limit: 'header text', ok: header(150), bad: header(151) },
    { limit: 'section fields count', ok: fields(10, 1), bad: fields(11, 1) },
    { limit: 'section field text', ok: fields(1, 2000), bad: fields(1, 2001) },
    { limit: 'context elements', ok: buttons('context', 10), bad: buttons('context', 11) },
    { limit: 'actions elements', ok: buttons('actions', 25), bad: buttons('actions', 26) },
    { limit: 'button value', ok: valued(2000), bad: valued(2001) },
    { limit: 'confirm title', ok: confirmed(100, 1), bad: confirmed(101, 1) },
    { limit: 'confirm text', ok: confirmed(1, 300), bad: confirmed(1, 301) },
    { limit: 'block_id', ok: blockId(255), bad: blockId(256) },
  ])('accepts $limit at the limit and refuses one over', ({ ok, bad }) => {
    expect(checkBlocks([ok])).toBeUndefined();
    expect(validateBlocks([bad])).toBe('invalid_blocks');
  });

  it('refuses a block_id used twice, naming both places', () => {
    const twice = [
      { ...section('a'), block_id: 'same' },
      { ...section('b'), block_id: 'same' },
    ];
    expect(checkBlocks(twice)).toEqual({
      error: 'invalid_blocks',
      reasons: ['duplicate block_id, also used by /blocks/0 [json-pointer:/blocks/1/block_id]'],
    });
  });

  it('counts every text string towards the 12,000 total', () => {
    const mixed = [header(100), fields(2, 50), buttons('actions', 3), confirmed(10, 20)];
    // header + two fields + three one-letter buttons + the confirm's title, text, Yes, No and Go
    expect(blockTextLength(mixed)).toBe(100 + 100 + 3 + (10 + 20 + 3 + 2 + 2));
    const atLimit = Array.from({ length: 4 }, () => section('t'.repeat(3000)));
    expect(validateBlocks(atLimit)).toBeUndefined();
    expect(validateBlocks([...atLimit, header(1)])).toBe('msg_blocks_too_long');
  });

  it('refuses blocks that are not an array of typed objects', () => {
    expect(validateBlocks('[]')).toBe('invalid_blocks_format');
    expect(validateBlocks([{ text: 'no type' }])).toBe('invalid_blocks');
  });
});
