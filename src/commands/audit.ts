/**
 * `/proxy-migrate audit <cluster> [node]`: the recent record of who did what (requests,
 * approvals and rejections with reasons, refused clicks, every write with its approver,
 * verifications, rollbacks, how runs ended), only to the person who asks. The full export is
 * the terminal's `proxy-migrate audit`.
 */
import { auditLine } from '../core/audit.js';
import { resolveCluster } from '../core/cluster-access.js';
import { AppError } from '../errors.js';
import { chunkLines, context, escape, section } from '../views/blocks.js';
import { SLASH_COMMAND, type Verb } from './types.js';

const usage = `${SLASH_COMMAND} audit <cluster> [node]`;
const DAYS = 30;
const SHOWN = 25;

export const auditVerb: Verb = {
  name: 'audit',
  usage,
  summary: 'the recent record of who requested, approved, changed and verified what',
  run: async (ctx) => {
    const [name, node, ...extra] = ctx.args;
    if (extra.length > 0) {
      throw new AppError('USAGE', `Unexpected arguments: ${extra.join(' ').slice(0, 80)}.`, {
        remedy: `Usage: ${usage}`,
      });
    }
    const cluster = resolveCluster(
      ctx.services.config.clusters,
      name,
      ctx.request.channelId,
      usage,
    );
    const log = ctx.services.audit;
    if (log === undefined) {
      throw new AppError('QUEUE_UNAVAILABLE', 'This bot keeps no audit trail.', {
        remedy: 'The audit trail lives in Redis: run the bot with REDIS_URL pointing at it.',
      });
    }
    await ctx.ack();
    const sinceMs = ctx.services.clock.now().getTime() - DAYS * 86_400_000;
    // Decisions, writes, refusals and ends; a passed verification is one of a dozen per run, so
    // it stays in the export (and the run's evidence file), and only a failed one is shown here.
    const entries = (
      await log.query({
        cluster: cluster.name,
        ...(node === undefined ? {} : { node }),
        sinceMs,
        limit: SHOWN * 20,
      })
    )
      .filter((e) => e.kind !== 'verification' || e.ok === false)
      .slice(0, SHOWN);
    const what = `${cluster.name}${node === undefined ? '' : `/${node}`}`;
    if (entries.length === 0) {
      await ctx.respond({
        text: `Nothing recorded for ${what} in the last ${DAYS} days.`,
        blocks: [section(`Nothing recorded for *${escape(what)}* in the last ${DAYS} days.`)],
      });
      return;
    }
    const lines = [...entries].reverse().map((e) => escape(auditLine(e)));
    await ctx.respond({
      text: `Audit of ${what}: the last ${entries.length} entries`,
      blocks: [
        section(
          `*Audit · ${escape(what)}* · the last ${entries.length} entries, oldest first (passed verifications are in the export)`,
        ),
        ...chunkLines(lines, 2800).map((chunk) => section(`\`\`\`${chunk}\`\`\``)),
        context(
          `Everything, as JSON lines: \`proxy-migrate audit ${cluster.name} --since ${DAYS}d --format jsonl\``,
        ),
      ],
    });
  },
};
