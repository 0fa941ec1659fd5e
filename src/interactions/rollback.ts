/**
 * The Rollback button on a cutover's result: the cutover's requester or an approver (home team)
 * may roll the node back without a second approval unless the cluster says otherwise; behind
 * Slack's confirm dialog. The request is claimed on the cutover run against its version, so a
 * double click or two people at once start exactly one rollback.
 */
import { isApprover } from '../core/authorize.js';
import type { ClickOutcome } from './approve.js';
import { authorize, clickFacts } from './click.js';
import type { InteractionDeps } from './types.js';

interface RollbackClaim {
  by: string;
  at: string;
}

export async function rollbackClick(deps: InteractionDeps, body: unknown): Promise<ClickOutcome> {
  const facts = clickFacts(body);
  if ('invalid' in facts) return { reply: `That button cannot be used: ${facts.invalid}.` };
  const auth = await authorize(deps, 'rollback', facts);
  if (!auth.ok) return { reply: `Not rolled back: ${auth.reason}.` };
  const { state, cluster, verdict } = auth;
  const at = deps.clock.now().toISOString();
  const claim = await deps.runs.claim(state.id, 'rollbackRequested', { by: facts.userId, at });
  if (!claim.won) {
    const held = claim.value as Partial<RollbackClaim> | undefined;
    return {
      reply: `A rollback of ${state.node ?? '?'} was already requested${held?.by === undefined ? '' : ` by <@${held.by}>`}${held?.at === undefined ? '' : ` at ${held.at.slice(11, 16)} UTC`}; its card is in this channel.`,
    };
  }
  const groupMembers = await deps.groups.members(cluster.approvers.groups);
  const requester =
    state.requester.kind === 'slack' &&
    state.requester.userId === facts.userId &&
    state.requester.teamId === facts.userTeamId;
  const context = { homeTeamId: deps.homeTeamId, cluster, groupMembers, now: deps.clock.now() };
  const preApproved =
    !cluster.rollbackNeedsApproval && (requester || isApprover(facts.userId, context));
  const runId = await deps.runs.start({
    kind: 'rollback',
    cluster: state.cluster,
    ...(state.node === undefined ? {} : { node: state.node }),
    requester: verdict.actor,
    options: {
      autoRollback: false,
      dryRun: false,
      ...(state.options.channel === undefined ? {} : { channel: state.options.channel }),
      approvalTtlMs: cluster.approvalTtlMinutes * 60_000,
      ...(preApproved ? { preApproved: verdict.actor } : {}),
    },
    facts: { rollsBack: state.id },
  });
  await deps.runs
    .signal(state.id, { type: 'recorded', at, facts: { rollbackRun: runId } })
    .catch((error: unknown) =>
      deps.logger.warn({ err: error, runId: state.id }, 'could not keep the rollback run id'),
    );
  deps.logger.info({ runId: state.id, rollbackRun: runId, user: facts.userId }, 'rollback started');
  return preApproved
    ? {}
    : {
        reply: `Rollback of ${state.node ?? '?'} requested (run ${runId}); an approver must approve it.`,
      };
}
