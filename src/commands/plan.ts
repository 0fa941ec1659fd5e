/**
 * `/proxy-migrate plan <cluster> [node]`: the plan a cutover would ask approval for, as the
 * terminal's `plan` computes it (engine/plan-report.ts): the summary and hash in the channel,
 * the diffs in its thread. It acks at once, then reads the cluster here, in the bot process:
 * a plan is a read (its only writes are server-side dry runs), has nothing to resume after a
 * crash and takes no lock, so it is not a run; the person simply asks again.
 */
import { randomUUID } from 'node:crypto';
import { resolveCluster } from '../core/cluster-access.js';
import { planReport } from '../engine/plan-report.js';
import { AppError } from '../errors.js';
import { escape, section } from '../views/blocks.js';
import { planCard, planThread } from '../views/plan-card.js';
import { SLASH_COMMAND, type Verb } from './types.js';

const usage = `${SLASH_COMMAND} plan <cluster> [node]`;

/** A Kubernetes object name (RFC 1123 subdomain): anything else cannot be a node. */
const NODE_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export const planVerb: Verb = {
  name: 'plan',
  usage,
  summary:
    'show what a cutover would change (canary verdict, actions, dry run, hash, node order); writes nothing',
  run: async (ctx) => {
    const [name, node, ...extra] = ctx.args;
    if (extra.length > 0) {
      throw new AppError('USAGE', `Unexpected arguments: ${extra.join(' ')}.`, {
        remedy: `Usage: ${usage}`,
      });
    }
    const config = resolveCluster(ctx.services.config.clusters, name, ctx.request.channelId, usage);
    if (node !== undefined && !NODE_NAME.test(node)) {
      throw new AppError('USAGE', `"${node.slice(0, 60)}" is not a node name.`, {
        remedy: `Node names are lowercase letters, digits, "-" and "."; usage: ${usage}`,
      });
    }
    const { clock, directory, chat } = ctx.services;
    const started = clock.now();
    await ctx.ack({
      text: `Planning ${config.name}${node === undefined ? '' : `, node ${node}`}…`,
      blocks: [
        section(
          `:hourglass_flowing_sand: Planning *${escape(config.name)}*${node === undefined ? '' : `, node *${escape(node)}*`}. The plan will appear in this channel; nothing is written.`,
        ),
      ],
    });
    const cluster = directory.get(config.name);
    if (node !== undefined && (await cluster.getNode(node)) === undefined) {
      throw new AppError('USAGE', `Cluster ${config.name} has no node "${node}".`, {
        remedy: `Check the name (\`kubectl get nodes\` in context ${config.context ?? 'the default'}), or leave the node out for the shared objects. Usage: ${usage}`,
      });
    }
    const report = await planReport({
      cluster,
      config,
      ...(node === undefined ? {} : { node }),
      clock,
    });
    if ('problem' in report) {
      throw new AppError('K8S_NOT_FOUND', `Cannot plan ${config.name}: ${report.problem}.`, {
        remedy: `proxy-migrate plans a cluster whose kube-proxy is the kube-system DaemonSet reading a ConfigMap; \`${SLASH_COMMAND} preflight ${config.name}\` shows what it found.`,
      });
    }
    const card = planCard(report, {
      requestedBy: ctx.request.userId,
      requestedAt: started.toISOString(),
      tookMs: clock.now().getTime() - started.getTime(),
    });
    const channel = ctx.request.channelId;
    // Keyed per request: a post whose answer Slack loses is found, not posted twice.
    const key = `plan:${randomUUID()}`;
    const { ts } = await chat.post(channel, card, { key });
    const thread = planThread(report);
    for (const [i, reply] of thread.diffReplies.entries())
      await chat.post(channel, reply, { threadTs: ts, key: `${key}:diff:${i}` });
    if (thread.file !== undefined) await chat.uploadFile(channel, { ...thread.file, threadTs: ts });
    for (const [i, reply] of thread.orderReplies.entries())
      await chat.post(channel, reply, { threadTs: ts, key: `${key}:order:${i}` });
    ctx.logger.info(
      {
        cluster: config.name,
        node,
        hash: report.hash,
        canary: report.canary.allowed,
        ts,
        diffs: thread.file === undefined ? 'blocks' : 'file',
      },
      'plan posted',
    );
  },
};
