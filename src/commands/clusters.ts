/** `/proxy-migrate clusters`: the clusters the asking channel may drive, and who approves. */
import { clustersMessage } from '../views/clusters.js';
import { SLASH_COMMAND, type Verb } from './types.js';

export const clustersVerb: Verb = {
  name: 'clusters',
  usage: `${SLASH_COMMAND} clusters`,
  summary: 'list the clusters this channel may drive, their channels and approvers',
  run: async (ctx) => {
    const [first, ...rest] = clustersMessage(ctx.services.config.clusters, ctx.request.channelId);
    await ctx.ack(first);
    for (const message of rest) await ctx.respond(message);
  },
};
