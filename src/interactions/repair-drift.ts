/**
 * "Request repair" on a drift alert: an approver of the cluster (home team) asks for the repair,
 * which then goes through the same path as a cutover: a run with its plan, a server-side dry
 * run, the approval card (four-eyes: someone else approves), the cluster lock and the
 * plan-unchanged gate. The button's value is a drift id; the drift is read back from the store
 * and must still hold. Drifts that no write of the tool's own repairs (a node with two
 * kube-proxies, say) get their repair in words, for a person to do.
 */
import { isApprover } from '../core/authorize.js';
import type { ClickOutcome } from './approve.js';
import type { InteractionDeps } from './types.js';

/** What the repair run (the cutover's shared step alone) puts right. */
const REPAIRABLE = new Set(['original-affinity', 'original-strategy']);
const DRIFT_ID = /^dr-[A-Za-z0-9-]{4,80}$/;
const CLAIM_MS = 30 * 60_000;

function field(body: unknown, ...path: string[]): unknown {
  let at: unknown = body;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = Array.isArray(at) ? (at as unknown[])[Number(key)] : (at as Record<string, unknown>)[key];
  }
  return at;
}

export async function repairDriftClick(
  deps: InteractionDeps,
  body: unknown,
): Promise<ClickOutcome> {
  const id = field(body, 'actions', '0', 'value');
  const userId = field(body, 'user', 'id');
  const teamId = field(body, 'user', 'team_id');
  const channelId = field(body, 'container', 'channel_id');
  const messageTs = field(body, 'container', 'message_ts');
  if (typeof id !== 'string' || !DRIFT_ID.test(id)) {
    return { reply: 'That button cannot be used: it names no drift.' };
  }
  if (typeof userId !== 'string' || typeof teamId !== 'string') {
    return { reply: 'That button cannot be used: no user.' };
  }
  if (deps.drifts === undefined) return { reply: 'The drift guard is off in this bot.' };
  const drift = await deps.drifts.drift(id);
  if (drift === undefined) {
    return {
      reply: 'That drift has cleared (or its alert is older than a day): nothing to repair.',
    };
  }
  // The button must sit on the alert that announced this drift.
  if (drift.channel !== channelId || drift.ts !== messageTs) {
    return { reply: 'That button does not belong to that drift.' };
  }
  const cluster = deps.config.clusters.find((c) => c.name === drift.cluster);
  if (cluster === undefined) return { reply: `Cluster ${drift.cluster} is no longer configured.` };
  const groupMembers = await deps.groups.members(cluster.approvers.groups);
  const context = { homeTeamId: deps.homeTeamId, cluster, groupMembers, now: deps.clock.now() };
  if (teamId !== deps.homeTeamId || !isApprover(userId, context)) {
    deps.logger.info({ drift: id, user: userId, team: teamId }, 'repair request refused');
    return {
      reply: `Not repaired: only an approver of cluster ${cluster.name} may request a repair.`,
    };
  }
  if (!REPAIRABLE.has(drift.invariant)) {
    return { reply: `proxy-migrate does not repair ${drift.invariant} itself. ${drift.repair}` };
  }
  if (!(await deps.drifts.claimRepair(id, CLAIM_MS))) {
    return { reply: 'A repair of that drift was already requested; its card is in this channel.' };
  }
  const runId = await deps.runs.start({
    kind: 'repair',
    cluster: cluster.name,
    requester: { kind: 'slack', userId, teamId },
    options: {
      autoRollback: false,
      dryRun: false,
      channel: drift.channel,
      approvalTtlMs: cluster.approvalTtlMinutes * 60_000,
    },
    facts: { drift: id, invariant: drift.invariant },
  });
  deps.logger.info({ drift: id, runId, user: userId }, 'repair requested');
  return {
    reply: `Repair of ${drift.invariant} on ${cluster.name} requested (run ${runId}): the plan and the approval card follow in its thread.`,
  };
}
