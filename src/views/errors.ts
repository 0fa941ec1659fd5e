/**
 * How an error looks to the person who asked: one sentence, the remedy, the code. Never a stack.
 * The message may echo user input, so it is escaped; remedies are authored by the product.
 */
import { asAppError } from '../errors.js';
import type { ChatMessage } from '../ports/chat.js';
import { context, escape, escapeKeepingMentions, section } from './blocks.js';

export function errorReply(error: unknown): ChatMessage {
  const appError = asAppError(error);
  return {
    text: `${escape(appError.message)} ${escapeKeepingMentions(appError.remedy)}`,
    blocks: [
      section(`:warning: ${escape(appError.message)}\n${escapeKeepingMentions(appError.remedy)}`),
      context(`error code \`${appError.code}\``),
    ],
  };
}
