/**
 * When the run's channel is closed to the bot (deleted, archived, the bot removed), the person
 * who asked must still learn how the run went: a direct message, or else an ephemeral reply
 * through the response_url of their command (which the process that took it keeps in memory).
 */
import type { RunState } from '../core/run-state.js';
import type { ChatMessage, ChatPort } from '../ports/chat.js';
import type { Logger } from '../log.js';
import { context, section } from '../views/blocks.js';

export type NoticeRoute = { via: 'dm'; channel: string; ts: string } | { via: 'response_url' };

/** Why the person hears it here and not in the channel: the first lines of the notice. */
export function elsewhereNote(channel: string | undefined, message: ChatMessage): ChatMessage {
  const where = channel === undefined ? 'the run’s channel' : `<#${channel}>`;
  const note = `:warning: I could not post in ${where} (the channel is gone or the bot is not in it), so this comes to you directly. Invite the bot (/invite @proxy-migrate) to use that channel again.`;
  return {
    text: `${message.text} (posted to you directly: the bot cannot post in the run's channel)`,
    blocks: [section(note), ...(message.blocks ?? [section(message.text)])],
  };
}

/**
 * Sends `message` to the requester directly; resolves to where it went, or undefined when
 * neither way worked (logged). `key` names the post so a lost answer does not repeat it.
 */
export async function tellRequester(
  chat: ChatPort,
  state: RunState,
  message: ChatMessage,
  key: string,
  logger: Logger,
): Promise<NoticeRoute | undefined> {
  const requester = state.requester;
  const notice = elsewhereNote(state.options.channel, message);
  if (requester.kind === 'slack') {
    try {
      const channel = await chat.openDirect(requester.userId);
      const { ts } = await chat.post(channel, notice, { key });
      return { via: 'dm', channel, ts };
    } catch (error) {
      logger.warn({ err: error, runId: state.id }, 'could not send the requester a direct message');
    }
  }
  try {
    await chat.respondToRun(state.id, {
      text: notice.text,
      blocks: [...(notice.blocks ?? []), context(`run \`${state.id}\``)],
    });
    return { via: 'response_url' };
  } catch (error) {
    logger.warn({ err: error, runId: state.id }, 'could not answer through the response_url');
  }
  return undefined;
}
