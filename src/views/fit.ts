/**
 * Every reply fits Slack's limits, whatever a person typed: texts are cut at a safe place (never
 * inside a surrogate pair, an mrkdwn escape such as `&amp;`, a `<@U…>` mention or link, and a cut
 * code block is closed again), and whole messages are brought within the block limits. Slack
 * refuses a message over its limits (or truncates it mid-character), so a reply that echoes a
 * 4,000-character argument must be fitted before it is sent.
 */
import type { KnownBlock } from '@slack/types';
import type { ChatMessage } from '../ports/chat.js';

/** Where Slack's hard limits are, and the lower targets replies aim for. */
export const REPLY_LIMITS = {
  /** chat.postMessage truncates `text` at 40,000 characters (and cuts wherever it lands). */
  slackText: 40_000,
  /** A reply's text (an ephemeral answer, a card's notification line) stays far below. */
  messageText: 3000,
  blocks: 50,
  sectionText: 3000,
  sectionField: 2000,
  fields: 10,
  headerText: 150,
  contextElements: 10,
  contextText: 3000,
  buttonText: 75,
  /** Slack answers msg_blocks_too_long at about 12–13k characters of block text. */
  blockText: 12_000,
} as const;

const ELLIPSIS = '…';
/** The longest escape or entity Slack's mrkdwn uses (`&#x1F600;` and the like). */
const ENTITY = /^&(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/;
/** A mention or link longer than this is not treated as one (plain text that happens to hold `<`). */
const MAX_TOKEN = 400;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** The largest index ≤ `end` at which `text` may be cut without breaking a character or token. */
function safeEnd(text: string, end: number): number {
  let cut = Math.max(0, Math.min(end, text.length));
  // A surrogate pair is one character: never keep its first half alone.
  if (cut > 0 && cut < text.length && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  // An escape cut in the middle (`&am`) shows as garbage: cut before its `&`.
  const amp = text.lastIndexOf('&', cut - 1);
  if (amp !== -1 && cut - amp < 12) {
    const entity = ENTITY.exec(text.slice(amp, amp + 12));
    if (entity !== null && amp + entity[0].length > cut) cut = amp;
  }
  // A mention or link (`<@U123>`, `<#C1|ops>`, `<https://…|label>`) cut open breaks the rest.
  const open = text.lastIndexOf('<', cut - 1);
  if (open !== -1 && cut - open <= MAX_TOKEN && text.lastIndexOf('>', cut - 1) < open) {
    const close = text.indexOf('>', open);
    if (close === -1 || close >= cut) cut = open;
  }
  // A zero-width joiner left at the end would glue the ellipsis onto half an emoji sequence.
  while (cut > 0 && text.charCodeAt(cut - 1) === 0x200d) cut -= 1;
  return cut;
}

/**
 * `text` within `max` UTF-16 code units (what Slack counts), cut at a safe place and ended
 * with an ellipsis; an opened code block is closed so the rest of the message is not code.
 */
export function fitText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));
  let head = text.slice(0, safeEnd(text, max - ELLIPSIS.length));
  if ((head.match(/```/g) ?? []).length % 2 === 1) {
    const closing = '\n```';
    head = text.slice(0, safeEnd(text, max - ELLIPSIS.length - closing.length));
    if ((head.match(/```/g) ?? []).length % 2 === 1) return `${head}${ELLIPSIS}${closing}`;
  }
  return `${head}${ELLIPSIS}`;
}

/** A short echo of user input (`Unknown command "…"`), cut by characters, never mid-character. */
export function clip(text: string, max: number): string {
  return fitText(text, max);
}

function fitTextObject<T extends { text: string }>(object: T, max: number): T {
  return object.text.length <= max ? object : { ...object, text: fitText(object.text, max) };
}

function fitBlock(block: KnownBlock): KnownBlock {
  switch (block.type) {
    case 'section': {
      const fitted = { ...block };
      if (block.text !== undefined)
        fitted.text = fitTextObject(block.text, REPLY_LIMITS.sectionText);
      if (block.fields !== undefined) {
        fitted.fields = block.fields
          .slice(0, REPLY_LIMITS.fields)
          .map((field) => fitTextObject(field, REPLY_LIMITS.sectionField));
      }
      return fitted;
    }
    case 'header':
      return { ...block, text: fitTextObject(block.text, REPLY_LIMITS.headerText) };
    case 'context':
      return {
        ...block,
        elements: block.elements
          .slice(0, REPLY_LIMITS.contextElements)
          .map((element) =>
            'text' in element && typeof element.text === 'string'
              ? fitTextObject(element, REPLY_LIMITS.contextText)
              : element,
          ),
      };
    default:
      return block;
  }
}

/** Characters of text Slack counts towards a message's block-text total. */
function textLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + textLength(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  let total = 0;
  for (const [key, inner] of Object.entries(value)) {
    total += key === 'text' && typeof inner === 'string' ? inner.length : textLength(inner);
  }
  return total;
}

const omitted = (count: number): KnownBlock => ({
  type: 'context',
  elements: [
    {
      type: 'mrkdwn',
      text: `_${count} more block${count === 1 ? '' : 's'} not shown: too long for one Slack message._`,
    },
  ],
});

/**
 * The message within every limit a reply can hit: its text (a reply's target by default;
 * posted messages may use Slack's own limit), each block's texts, the number of blocks and the
 * total block text. Blocks that do not fit are dropped from the end, and a last
 * line says how many.
 */
export function fitMessage(message: ChatMessage, options: { textMax?: number } = {}): ChatMessage {
  const text = fitText(message.text, options.textMax ?? REPLY_LIMITS.messageText);
  if (message.blocks === undefined) return text === message.text ? message : { ...message, text };
  const fitted = message.blocks.map(fitBlock);
  const kept: KnownBlock[] = [];
  let size = 0;
  const reserve = textLength([omitted(999)]);
  for (const [index, block] of fitted.entries()) {
    const length = textLength(block);
    const isLast = index === fitted.length - 1;
    const room = isLast ? 0 : reserve;
    if (
      kept.length + (isLast ? 1 : 2) > REPLY_LIMITS.blocks ||
      size + length + room > REPLY_LIMITS.blockText
    ) {
      kept.push(omitted(fitted.length - index));
      break;
    }
    kept.push(block);
    size += length;
  }
  return { ...message, text, blocks: kept };
}
