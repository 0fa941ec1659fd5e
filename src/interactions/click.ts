/**
 * The part every button handler shares: read the click's facts from the payload (and nothing
 * from the value but a run id), load the run, authorize, and record a refusal on the run so
 * the record shows who tried what. Pure parsing is separate so any payload can be tested.
 */
import { authorizeClick, type ClickKind, type ClickVerdict } from '../core/authorize.js';
import type { RunState } from '../core/run-state.js';
import type { ClusterConfig } from '../config.js';
import type { InteractionDeps } from './types.js';

/** Run ids as runs.ts makes them (`co-…`, `rb-…`, `pf-…`, `rp-…`); anything else is not a run. */
export const RUN_ID = /^(co|rb|pf|rp)-[A-Za-z0-9-]{4,60}$/;

export interface ClickFacts {
  runId: string;
  userId: string;
  userTeamId: string;
  channelId: string;
  messageTs: string;
  triggerId?: string;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= 300 ? value : undefined;
}

function obj(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The facts of a `block_actions` click, or why the payload is not one we act on. */
export function clickFacts(body: unknown): ClickFacts | { invalid: string } {
  const b = obj(body);
  const user = obj(b['user']);
  const action = obj(Array.isArray(b['actions']) ? (b['actions'] as unknown[])[0] : undefined);
  const container = obj(b['container']);
  const runId = str(action['value']);
  const userId = str(user['id']);
  // Slack Connect: the user's own team; a home-workspace user has it equal to team.id. Only an
  // absent user.team_id falls back to the request's team: an empty or over-long one is no team,
  // never the home team (which would make anyone's click count as a home user's).
  const userTeamId =
    user['team_id'] === undefined ? str(obj(b['team'])['id']) : str(user['team_id']);
  const channelId = str(container['channel_id']) ?? str(obj(b['channel'])['id']);
  const messageTs = str(container['message_ts']);
  if (runId === undefined || !RUN_ID.test(runId)) return { invalid: 'the button names no run' };
  if (userId === undefined || userTeamId === undefined) return { invalid: 'no user' };
  if (channelId === undefined || messageTs === undefined) return { invalid: 'no message' };
  const triggerId = str(b['trigger_id']);
  return {
    runId,
    userId,
    userTeamId,
    channelId,
    messageTs,
    ...(triggerId === undefined ? {} : { triggerId }),
  };
}

/** How long a click may wait for its run to keep the ts of the message it was made on. */
const MESSAGE_TS_GRACE_MS = 3_000;

/** The click is on the run's channel and the run has not yet kept the ts its button would be on. */
function awaitingTs(state: RunState, kind: ClickKind, facts: ClickFacts): boolean {
  if (state.options.channel !== facts.channelId) return false;
  const key = kind === 'rollback' ? 'resultTs' : 'approvalTs';
  return typeof state.facts[key] !== 'string';
}

export type Authorized =
  | {
      ok: true;
      state: RunState;
      cluster: ClusterConfig;
      verdict: Extract<ClickVerdict, { ok: true }>;
    }
  | { ok: false; reason: string; code?: string };

export async function authorize(
  deps: InteractionDeps,
  kind: ClickKind,
  facts: ClickFacts,
): Promise<Authorized> {
  const found = await deps.runs.get(facts.runId);
  if (found === undefined) return { ok: false, reason: 'that run does not exist (any more)' };
  let state: RunState = found;
  const cluster = deps.config.clusters.find((c) => c.name === found.cluster);
  if (cluster === undefined) {
    return { ok: false, reason: `cluster ${state.cluster} is no longer configured` };
  }
  const groupMembers = await deps.groups.members(cluster.approvers.groups);
  const decide = (s: RunState): ClickVerdict =>
    authorizeClick(
      s,
      { kind, ...facts },
      { homeTeamId: deps.homeTeamId, cluster, groupMembers, now: deps.clock.now() },
    );
  let verdict = decide(state);
  // A card is clickable as soon as Slack shows it, a moment before the run has kept its ts: a
  // click on the run's own channel then finds no such message yet. Read the run again for a
  // little while before calling the button foreign.
  for (
    const until = Date.now() + MESSAGE_TS_GRACE_MS;
    !verdict.ok &&
    verdict.code === 'WRONG_MESSAGE' &&
    awaitingTs(state, kind, facts) &&
    Date.now() < until;
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = (await deps.runs.get(facts.runId)) ?? state;
    verdict = decide(state);
  }
  if (!verdict.ok) {
    await refused(deps, state, kind, facts, verdict.reason, verdict.code);
    // The expiry job may be late (a stopped bot, a long outage): the click ends the run, so the
    // card says expired and its buttons go away.
    if (verdict.code === 'EXPIRED') {
      await deps.runs.signal(state.id, { type: 'expired', at: deps.clock.now().toISOString() });
    }
    return { ok: false, reason: verdict.reason, code: verdict.code };
  }
  return { ok: true, state, cluster, verdict };
}

/** Logs a refused click and keeps it in the run's history. */
export async function refused(
  deps: InteractionDeps,
  state: RunState,
  kind: ClickKind,
  facts: Pick<ClickFacts, 'userId' | 'userTeamId'>,
  reason: string,
  code: string,
): Promise<void> {
  deps.logger.info(
    { runId: state.id, click: kind, user: facts.userId, team: facts.userTeamId, code },
    'click refused',
  );
  deps.metrics?.clickRefusals.inc({ button: kind, reason: code });
  await deps.runs
    .signal(state.id, {
      type: 'recorded',
      at: deps.clock.now().toISOString(),
      facts: {},
      note: { event: `${kind}-refused`, note: `${facts.userId}@${facts.userTeamId}: ${reason}` },
    })
    .catch((error: unknown) =>
      deps.logger.warn({ err: error, runId: state.id }, 'could not record a refused click'),
    );
}
