/** `/proxy-migrate help`: lists every verb with its usage. */
import { helpMessage } from '../views/help.js';
import { SLASH_COMMAND, type Verb } from './types.js';

/** Built from the registry so help never drifts from what the bot accepts. */
export function helpVerb(all: () => readonly Verb[]): Verb {
  return {
    name: 'help',
    usage: `${SLASH_COMMAND} help`,
    summary: 'show this list',
    run: async (ctx) => {
      await ctx.ack(helpMessage(all()));
    },
  };
}
