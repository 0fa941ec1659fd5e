/**
 * `/proxy-migrate preflight <cluster>`: queue a pre-flight (one for any number of identical
 * requests); the worker posts the report.
 */
import { resolveCluster } from '../core/cluster-access.js';
import { probeModes, type ProbeMode } from '../core/probe-selection.js';
import { AppError } from '../errors.js';
import { context, escape, section } from '../views/blocks.js';
import { startOnce } from './start-once.js';
import { SLASH_COMMAND, type Verb } from './types.js';

const usage = `${SLASH_COMMAND} preflight <cluster>`;
/** The option is left out of the one-line usage in help; the README and errors name it. */
const fullUsage = `${usage} [--probe all|sample|none]`;

/** `--probe MODE` after the cluster; nothing else. Undefined mode: chosen by fleet size. */
function parseProbe(extra: readonly string[]): { mode?: ProbeMode; rest: string[] } {
  if (extra[0] !== '--probe') return { rest: [...extra] };
  const mode = probeModes.find((m) => m === extra[1]);
  if (mode === undefined) {
    throw new AppError('USAGE', `--probe must be one of ${probeModes.join(', ')}.`, {
      remedy: `Usage: ${fullUsage}`,
    });
  }
  return { mode, rest: extra.slice(2) };
}

export const preflightVerb: Verb = {
  name: 'preflight',
  usage,
  summary: 'check a cluster for every known trap before migrating; the report is posted here',
  run: async (ctx) => {
    const [name, ...extra] = ctx.args;
    const { mode, rest } = parseProbe(extra);
    if (rest.length > 0) {
      throw new AppError('USAGE', `Unexpected arguments: ${rest.join(' ')}.`, {
        remedy: `Usage: ${fullUsage}`,
      });
    }
    const cluster = resolveCluster(
      ctx.services.config.clusters,
      name,
      ctx.request.channelId,
      usage,
    );
    await ctx.ack();
    const { runId, started } = await startOnce(ctx, cluster, {
      kind: 'preflight',
      cluster: cluster.name,
      requester: { kind: 'slack', userId: ctx.request.userId, teamId: ctx.request.teamId },
      options: { autoRollback: false, dryRun: false, channel: ctx.request.channelId },
      ...(mode === undefined ? {} : { facts: { probeMode: mode } }),
    });
    if (!started) return;
    if (ctx.request.responseUrl !== undefined) {
      ctx.services.responseUrls?.rememberResponseUrl(runId, ctx.request.responseUrl);
    }
    ctx.logger.info({ runId, cluster: cluster.name }, 'pre-flight queued');
    await ctx.respond({
      text: `Pre-flight for ${cluster.name} queued (run ${runId}).`,
      blocks: [
        section(
          `:hourglass_flowing_sand: Pre-flight for *${escape(cluster.name)}* queued. The report will appear in this channel.`,
        ),
        context(`run \`${runId}\``),
      ],
    });
  },
};
