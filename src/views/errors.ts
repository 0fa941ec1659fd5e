/**
 * How an error looks to the person who asked: one sentence, the remedy, the code. Never a stack.
 * The message may echo user input, so it is escaped; remedies are authored by the product.
 */
import { asAppError } from '../errors.js';
import type { ChatMessage } from '../ports/chat.js';
import { context, escape, escapeKeepingMentions, section } from './blocks.js';
import { clip, fitMessage } from './fit.js';

/** A message may echo what was typed; past this it is cut, so the remedy is always shown. */
const MESSAGE_MAX = 500;

export function errorReply(error: unknown): ChatMessage {
  const appError = asAppError(error);
  const message = escape(clip(appError.message, MESSAGE_MAX));
  const remedy = escapeKeepingMentions(appError.remedy);
  return fitMessage({
    text: `${message} ${remedy}`,
    blocks: [
      section(`:warning: ${message}\n${remedy}`),
      context(`error code \`${appError.code}\``),
    ],
  });
}
