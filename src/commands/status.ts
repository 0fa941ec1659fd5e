/**
 * `/proxy-migrate status <cluster>`: the terminal's `status` as a card in the channel, computed
 * by the same function (engine/read-status.ts): nodes by the mode their kube-proxy reports (read
 * on each node through short-lived probe pods, never guessed from labels), runs in flight, the
 * lock's holder and the invariants with their repairs. It acks at once and reads after the ack,
 * in the bot process: a read, with nothing to resume, so not a run.
 */
import { randomUUID } from 'node:crypto';
import { resolveCluster } from '../core/cluster-access.js';
import { statusOf } from '../engine/read-status.js';
import { AppError } from '../errors.js';
import { escape, section } from '../views/blocks.js';
import { statusMessages } from '../views/status-card.js';
import { SLASH_COMMAND, type Verb } from './types.js';

const usage = `${SLASH_COMMAND} status <cluster>`;

export const statusVerb: Verb = {
  name: 'status',
  usage,
  summary: 'which node runs which mode, runs in flight, the lock and the migration invariants',
  run: async (ctx) => {
    const [name, ...extra] = ctx.args;
    if (extra.length > 0) {
      throw new AppError('USAGE', `Unexpected arguments: ${extra.join(' ')}.`, {
        remedy: `Usage: ${usage}`,
      });
    }
    const config = resolveCluster(ctx.services.config.clusters, name, ctx.request.channelId, usage);
    const { clock, directory, chat, runStore } = ctx.services;
    const now = clock.now();
    await ctx.ack({
      text: `Reading the status of ${config.name}…`,
      blocks: [
        section(
          `:hourglass_flowing_sand: Reading the status of *${escape(config.name)}* (each node's mode is read on the node). The card will appear in this channel.`,
        ),
      ],
    });
    const status = await statusOf({ directory, config, store: runStore, probe: true, now });
    const [card, ...rest] = statusMessages(status, {
      requestedBy: ctx.request.userId,
      requestedAt: now.toISOString(),
      probed: true,
    });
    if (card === undefined) return;
    const channel = ctx.request.channelId;
    // Keyed per request: a post whose answer Slack loses is found, not posted twice.
    const key = `status:${randomUUID()}`;
    const { ts } = await chat.post(channel, card, { key });
    for (const [i, message] of rest.entries())
      await chat.post(channel, message, { threadTs: ts, key: `${key}:${i}` });
    ctx.logger.info(
      {
        cluster: config.name,
        byMode: status.byMode,
        violations: status.violations.map((v) => v.invariant),
        ts,
      },
      'status posted',
    );
  },
};
