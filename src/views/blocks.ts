/**
 * Block Kit building blocks that stay inside Slack's limits by construction: every text is
 * truncated to its field's limit, and long reports are split into messages that Slack accepts
 * (50 blocks, 3,000 characters a section, about 12,000 characters of block text a message).
 */
import type {
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  KnownBlock,
  SectionBlock,
} from '@slack/types';
import type { ChatMessage } from '../ports/chat.js';
import { fitText } from './fit.js';

export const SLACK_LIMITS = {
  blocksPerMessage: 50,
  sectionText: 3000,
  sectionField: 2000,
  fieldsPerSection: 10,
  headerText: 150,
  contextElements: 10,
  buttonText: 75,
  actionId: 255,
  blockId: 255,
  buttonValue: 2000,
  confirmTitle: 100,
  confirmText: 300,
  /** Undocumented: chat.postMessage fails with msg_blocks_too_long at about 12–13k characters. */
  messageBlockText: 12_000,
} as const;

/** What one report message may hold, with headroom under the hard limits. */
export const BUDGET = { sectionText: 2900, messageText: 10_000, blocks: 45 } as const;

/** Cuts at a safe place: never inside a surrogate pair, an escape like `&amp;` or a mention. */
export function truncate(text: string, max: number): string {
  return fitText(text, max);
}

/** Escapes the three characters Slack's mrkdwn treats as control characters. */
export function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Escapes like {@link escape} but keeps channel, user and user-group mentions (`<#C…>`, `<@U…>`,
 * `<!subteam^S…>`) working; `<!channel>`-style broadcasts stay escaped.
 */
export function escapeKeepingMentions(text: string): string {
  return escape(text).replace(/&lt;((?:#C|#G|@U|@W|!subteam\^S)[A-Z0-9]+)&gt;/g, '<$1>');
}

export function section(markdown: string): SectionBlock {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: truncate(markdown, SLACK_LIMITS.sectionText) },
  };
}

export function header(text: string): HeaderBlock {
  return {
    type: 'header',
    text: { type: 'plain_text', text: truncate(text, SLACK_LIMITS.headerText), emoji: true },
  };
}

export function context(...markdown: string[]): ContextBlock {
  return {
    type: 'context',
    elements: markdown
      .slice(0, SLACK_LIMITS.contextElements)
      .map((text) => ({ type: 'mrkdwn' as const, text: truncate(text, SLACK_LIMITS.sectionText) })),
  };
}

export function divider(): DividerBlock {
  return { type: 'divider' };
}

/** Splits lines into chunks of at most `max` characters, never splitting a line (long ones are cut). */
export function chunkLines(lines: readonly string[], max: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const raw of lines) {
    const line = truncate(raw, max);
    if (current !== '' && current.length + 1 + line.length > max) {
      chunks.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

/** Characters of text Slack counts towards a message's block-text total. */
export function blockTextLength(blocks: readonly KnownBlock[]): number {
  let total = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'text' && typeof inner === 'string') total += inner.length;
        else visit(inner);
      }
    }
  };
  visit(blocks);
  return total;
}

/**
 * Packs mrkdwn texts, one section each, into as many messages as needed, each within
 * {@link BUDGET}. `title` heads the first message; later ones say "(continued)". `fallback` is
 * each message's notification text. A text longer than a section allows is cut, never split,
 * so a code block is never broken across sections.
 */
export function packSections(
  title: string,
  texts: readonly string[],
  fallback: string | ((first: number, end: number) => string),
): ChatMessage[] {
  // A function names what each message holds (texts[first..end)), for its notification text.
  const notify = (first: number, end: number): string =>
    typeof fallback === 'string' ? fallback : fallback(first, end);
  const messages: ChatMessage[] = [];
  let blocks: KnownBlock[] = [section(title)];
  let size = blockTextLength(blocks);
  let first = 0;
  texts.forEach((text, i) => {
    const block = section(truncate(text, BUDGET.sectionText));
    const length = blockTextLength([block]);
    if (blocks.length >= BUDGET.blocks || size + length > BUDGET.messageText) {
      messages.push({ text: notify(first, i), blocks });
      blocks = [context(`${title} (continued)`)];
      size = blockTextLength(blocks);
      first = i;
    }
    blocks.push(block);
    size += length;
  });
  messages.push({ text: notify(first, texts.length), blocks });
  return messages;
}

/** Like {@link packSections} for plain lines, which may be grouped several to a section. */
export function paginate(title: string, lines: readonly string[], fallback: string): ChatMessage[] {
  return packSections(title, chunkLines(lines, BUDGET.sectionText), fallback);
}

/** `14:02 UTC`: the time people read on cards. */
export function utcTime(iso: string): string {
  return `${iso.slice(11, 16)} UTC`;
}

/** `11 s`, `2 min 5 s`: durations on cards. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
