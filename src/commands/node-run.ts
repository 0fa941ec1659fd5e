/**
 * What `cutover` and `rollback` share: `<cluster> <node> [--dry-run]`, checked with pure code
 * before the ack; then the run is started (once for identical requests) and the person told
 * where it will talk.
 */
import { resolveCluster } from '../core/cluster-access.js';
import type { ClusterConfig } from '../config.js';
import type { RunKind } from '../core/runbook.js';
import { AppError } from '../errors.js';
import { context, escape, section } from '../views/blocks.js';
import { startOnce } from './start-once.js';
import type { VerbContext } from './types.js';

/** A Node name is a DNS subdomain (RFC 1123), as the API server validates it. */
const NODE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export async function startNodeRun(
  ctx: VerbContext,
  kind: Extract<RunKind, 'cutover' | 'rollback'>,
  usage: string,
): Promise<void> {
  const flags = ctx.args.filter((a) => a.startsWith('--'));
  const words = ctx.args.filter((a) => !a.startsWith('--'));
  const unknown = flags.filter((f) => f !== '--dry-run');
  if (unknown.length > 0) {
    throw new AppError('USAGE', `Unknown option ${unknown[0]?.slice(0, 40) ?? ''}.`, {
      remedy: `Usage: ${usage}`,
    });
  }
  const [name, node, ...extra] = words;
  if (extra.length > 0) {
    throw new AppError('USAGE', `Unexpected arguments: ${extra.join(' ').slice(0, 80)}.`, {
      remedy: `Usage: ${usage}`,
    });
  }
  const cluster = resolveCluster(ctx.services.config.clusters, name, ctx.request.channelId, usage);
  if (node === undefined) {
    throw new AppError('USAGE', 'Which node?', { remedy: `Usage: ${usage}` });
  }
  if (node.length > 253 || !NODE_NAME.test(node)) {
    throw new AppError('USAGE', `"${node.slice(0, 60)}" is not a node name.`, {
      remedy: `Node names are lower-case DNS names, as \`kubectl get nodes\` lists them. Usage: ${usage}`,
    });
  }
  const dryRun = flags.includes('--dry-run');
  await ctx.ack();
  await requireNode(ctx, cluster, node, usage);
  const requester = {
    kind: 'slack',
    userId: ctx.request.userId,
    teamId: ctx.request.teamId,
  } as const;
  // An approver rolling back needs no second approval (unless the cluster asks for one).
  const preApproved =
    kind === 'rollback' &&
    !dryRun &&
    !cluster.rollbackNeedsApproval &&
    (await ctx.services.isApprover?.(cluster, ctx.request.userId, ctx.request.teamId)) === true;
  const { runId, started } = await startOnce(ctx, cluster, {
    kind,
    cluster: cluster.name,
    node,
    requester,
    options: {
      ...(preApproved ? { preApproved: requester } : {}),
      autoRollback: kind === 'cutover' && cluster.autoRollback,
      dryRun,
      channel: ctx.request.channelId,
      approvalTtlMs: cluster.approvalTtlMinutes * 60_000,
    },
  });
  if (!started) return;
  if (ctx.request.responseUrl !== undefined) {
    ctx.services.responseUrls?.rememberResponseUrl(runId, ctx.request.responseUrl);
  }
  ctx.logger.info({ runId, cluster: cluster.name, node, kind, dryRun }, `${kind} requested`);
  const what = kind === 'cutover' ? 'Cutover' : 'Rollback';
  await ctx.respond({
    text: `${what} of ${node} on ${cluster.name} requested (run ${runId}).`,
    blocks: [
      section(
        dryRun
          ? `:mag: Dry run of the ${kind} of *${escape(node)}* on *${escape(cluster.name)}*: the plan is checked by a server-side dry run and posted here; nothing is written.`
          : `:hourglass_flowing_sand: ${what} of *${escape(node)}* on *${escape(cluster.name)}* requested. The node pre-flight runs now; the approval card follows in the run's thread.`,
      ),
      context(`run \`${runId}\``),
    ],
  });
}

/**
 * A node the cluster does not have is a request that was wrong: it is refused here, after the
 * ack, without a run (which would take the cluster's lock, post a card and start probe pods
 * before finding out). Only the API's own "no such node" refuses; when the cluster cannot be
 * read now, the run starts and its pre-flight retries and reports on its card.
 */
async function requireNode(
  ctx: VerbContext,
  cluster: ClusterConfig,
  node: string,
  usage: string,
): Promise<void> {
  let found: boolean;
  try {
    found = (await ctx.services.directory.get(cluster.name).getNode(node)) !== undefined;
  } catch (error) {
    ctx.logger.warn(
      { err: { message: (error as Error).message }, cluster: cluster.name, node },
      'could not check the node before the run; the run checks it again',
    );
    return;
  }
  if (!found) {
    throw new AppError('USAGE', `Cluster ${cluster.name} has no node "${node}".`, {
      remedy: `Check the name (\`kubectl get nodes\` in context ${cluster.context ?? 'the default'}); nothing was started. Usage: ${usage}`,
    });
  }
}
