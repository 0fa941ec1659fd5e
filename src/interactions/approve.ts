/**
 * Approve: authorized again at the click (approver, home team, four-eyes, still waiting, not
 * expired), the plan recomputed from the live cluster and compared with the hash people were
 * shown, then one `approved` signal against the run's version: of a double click or two
 * approvers racing, one executes and the other is told what happened.
 */
import { authorizeClick } from '../core/authorize.js';
import { authorize, clickFacts, refused } from './click.js';
import type { InteractionDeps } from './types.js';

export interface ClickOutcome {
  /** What the clicker alone is told (ephemeral); nothing when the cards say it all. */
  reply?: string;
}

export async function approveClick(deps: InteractionDeps, body: unknown): Promise<ClickOutcome> {
  const facts = clickFacts(body);
  if ('invalid' in facts) return { reply: `That button cannot be used: ${facts.invalid}.` };
  const auth = await authorize(deps, 'approve', facts);
  if (!auth.ok) return { reply: `Not approved: ${auth.reason}.` };
  const { state, verdict } = auth;
  const now = await deps.planHashNow(state);
  if ('problem' in now) {
    // Unknown never passes: the run keeps waiting, and the approver can try again.
    await refused(deps, state, 'approve', facts, now.problem, 'PLAN_UNREADABLE');
    return {
      reply: `Not approved: the plan could not be computed again from the cluster (${now.problem}). Nothing was written; try again, or reject.`,
    };
  }
  const result = await deps.runs.signal(state.id, {
    type: 'approved',
    by: verdict.actor,
    at: deps.clock.now().toISOString(),
    planHash: now.hash,
  });
  if (result.refused !== undefined) {
    // Lost a race, or the plan changed (which ended the run: the cards say so).
    const again = authorizeClick(
      result.state,
      { kind: 'approve', ...facts },
      {
        homeTeamId: deps.homeTeamId,
        cluster: auth.cluster,
        groupMembers: new Set([facts.userId]),
        now: deps.clock.now(),
      },
    );
    // Saved: this click ended the run (the plan changed, or it expired); else it lost a race.
    const why = result.saved || again.ok ? result.refused : again.reason;
    deps.logger.info({ runId: state.id, user: facts.userId, why }, 'approval not applied');
    return { reply: `Not approved: ${why}.` };
  }
  deps.logger.info(
    { runId: state.id, user: facts.userId, team: facts.userTeamId, planHash: now.hash },
    'run approved',
  );
  return {};
}
