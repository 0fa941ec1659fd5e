/**
 * Block Kit limits as Slack enforces them server-side. Views that pass a unit test can still be
 * refused by Slack at runtime, so the fake rejects the same payloads and tests can also run rendered
 * views through {@link checkBlocks} directly. Reasons mimic Slack's own wording, json-pointer and all.
 */

export const slackLimits = {
  blocksPerMessage: 50,
  sectionText: 3000,
  sectionFieldText: 2000,
  sectionFields: 10,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  actionId: 255,
  blockId: 255,
  buttonValue: 2000,
  confirmTitle: 100,
  confirmText: 300,
  totalText: 12_000,
} as const;

export type BlocksErrorCode = 'invalid_blocks' | 'invalid_blocks_format' | 'msg_blocks_too_long';

export interface BlocksProblem {
  error: BlocksErrorCode;
  /** Human-readable reasons, e.g. `must be less than 3001 characters [json-pointer:/blocks/0/text/text]`. */
  reasons: string[];
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const textOf = (value: unknown): string | undefined =>
  isObject(value) && typeof value.text === 'string' ? value.text : undefined;

/** Visits every object nested anywhere in `value`, with its json-pointer. */
function walk(
  value: unknown,
  pointer: string,
  visit: (node: JsonObject, at: string) => void,
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, `${pointer}/${index}`, visit));
    return;
  }
  if (!isObject(value)) return;
  visit(value, pointer);
  for (const [key, child] of Object.entries(value)) walk(child, `${pointer}/${key}`, visit);
}

/** Sum of every `text` string anywhere in the blocks: what counts towards `msg_blocks_too_long`. */
export function blockTextLength(blocks: unknown): number {
  let total = 0;
  walk(blocks, '/blocks', (node) => {
    if (typeof node.text === 'string') total += node.text.length;
  });
  return total;
}

class Reasons {
  readonly list: string[] = [];

  maxChars(value: string | undefined, max: number, at: string): void {
    if (value !== undefined && value.length > max) {
      this.list.push(`must be less than ${max + 1} characters [json-pointer:${at}]`);
    }
  }

  maxItems(value: unknown, max: number, at: string): void {
    if (Array.isArray(value) && value.length > max) {
      this.list.push(`no more than ${max} items allowed [json-pointer:${at}]`);
    }
  }
}

function checkBlock(block: JsonObject, at: string, reasons: Reasons): void {
  switch (block.type) {
    case 'section':
      reasons.maxChars(textOf(block.text), slackLimits.sectionText, `${at}/text/text`);
      reasons.maxItems(block.fields, slackLimits.sectionFields, `${at}/fields`);
      if (Array.isArray(block.fields)) {
        block.fields.forEach((field, index) => {
          const fieldAt = `${at}/fields/${index}/text`;
          reasons.maxChars(textOf(field), slackLimits.sectionFieldText, fieldAt);
        });
      }
      break;
    case 'header':
      reasons.maxChars(textOf(block.text), slackLimits.headerText, `${at}/text/text`);
      break;
    case 'context':
      reasons.maxItems(block.elements, slackLimits.contextElements, `${at}/elements`);
      break;
    case 'actions':
      reasons.maxItems(block.elements, slackLimits.actionsElements, `${at}/elements`);
      break;
    default:
      break;
  }
}

/** Rules that apply wherever the object sits: buttons live in actions blocks and accessories alike. */
function checkAnyElement(node: JsonObject, at: string, reasons: Reasons): void {
  if (typeof node.action_id === 'string') {
    reasons.maxChars(node.action_id, slackLimits.actionId, `${at}/action_id`);
  }
  if (typeof node.block_id === 'string') {
    reasons.maxChars(node.block_id, slackLimits.blockId, `${at}/block_id`);
  }
  if (node.type === 'button') {
    reasons.maxChars(textOf(node.text), slackLimits.buttonText, `${at}/text/text`);
    if (typeof node.value === 'string') {
      reasons.maxChars(node.value, slackLimits.buttonValue, `${at}/value`);
    }
  }
  if (isObject(node.confirm)) {
    reasons.maxChars(
      textOf(node.confirm.title),
      slackLimits.confirmTitle,
      `${at}/confirm/title/text`,
    );
    reasons.maxChars(textOf(node.confirm.text), slackLimits.confirmText, `${at}/confirm/text/text`);
  }
}

/** Returns why Slack would refuse these blocks, or `undefined` when it would accept them. */
export function checkBlocks(blocks: unknown): BlocksProblem | undefined {
  if (!Array.isArray(blocks)) {
    return { error: 'invalid_blocks_format', reasons: ['must be an array [json-pointer:/blocks]'] };
  }
  const reasons = new Reasons();
  reasons.maxItems(blocks, slackLimits.blocksPerMessage, '/blocks');
  const seenBlockIds = new Map<string, number>();
  blocks.forEach((block: unknown, index) => {
    const at = `/blocks/${index}`;
    if (!isObject(block) || typeof block.type !== 'string') {
      reasons.list.push(`must provide an object with a type [json-pointer:${at}]`);
      return;
    }
    checkBlock(block, at, reasons);
    if (typeof block.block_id === 'string') {
      const first = seenBlockIds.get(block.block_id);
      if (first === undefined) seenBlockIds.set(block.block_id, index);
      else
        reasons.list.push(
          `duplicate block_id, also used by /blocks/${first} [json-pointer:${at}/block_id]`,
        );
    }
  });
  walk(blocks, '/blocks', (node, at) => checkAnyElement(node, at, reasons));
  if (reasons.list.length > 0) return { error: 'invalid_blocks', reasons: reasons.list };

  const total = blockTextLength(blocks);
  if (total > slackLimits.totalText) {
    return {
      error: 'msg_blocks_too_long',
      reasons: [
        `total text is ${total} characters, more than ${slackLimits.totalText} [json-pointer:/blocks]`,
      ],
    };
  }
  return undefined;
}

/** The error code Slack would answer with for these blocks, or `undefined` if they are fine. */
export function validateBlocks(blocks: unknown): BlocksErrorCode | undefined {
  return checkBlocks(blocks)?.error;
}
