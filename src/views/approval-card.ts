/**
 * The approval card (SLACK-UX.md), in the run's thread: cluster, node and pool, who asked, when
 * it expires, the plan and its hash, the node pre-flight, who may approve; Approve and Reject
 * while the run waits. Once decided (or expired, or ended otherwise) the same card says who did
 * what and when, and the buttons are gone. Rendered from the run alone; the buttons carry only
 * the run id.
 */
import type { ActionsBlock, KnownBlock } from '@slack/types';
import type { ClusterConfig } from '../config.js';
import { actorName, type RunState } from '../core/run-state.js';
import { ACTION } from '../interactions/ids.js';
import type { ChatMessage } from '../ports/chat.js';
import {
  chunkLines,
  context,
  duration,
  escape,
  escapeKeepingMentions,
  section,
  utcTime,
} from './blocks.js';

export type ApproverSettings = Pick<ClusterConfig, 'approvers' | 'fourEyes'>;

const MAX_ACTIONS_SHOWN = 12;

function approverList(settings: ApproverSettings): string {
  const people = [
    ...settings.approvers.users.map((u) => `<@${u}>`),
    ...settings.approvers.groups.map((g) => `<!subteam^${g}>`),
  ];
  const who = people.length === 0 ? 'nobody is configured' : people.join(', ');
  return `approvers: ${who} · four-eyes ${settings.fourEyes ? 'on' : 'off'}`;
}

function title(state: RunState): string {
  const pool = typeof state.facts['pool'] === 'string' ? ` (pool ${state.facts['pool']})` : '';
  const what = state.kind === 'rollback' ? 'Rollback' : 'Cutover';
  return `${what} requested · ${state.cluster} · node ${state.node ?? '?'}${pool}`;
}

/** What the card says once the run no longer waits. */
function decisionLine(state: RunState): string {
  const decided = state.approvals.at(-1);
  if (decided !== undefined && decided.by.kind === 'slack') {
    const when = utcTime(decided.at);
    if (decided.decision === 'approved')
      return `:white_check_mark: Approved by ${actorName(decided.by)} at ${when}`;
    return `:no_entry: Rejected by ${actorName(decided.by)} at ${when}${decided.reason === undefined ? '' : `: ${escape(decided.reason)}`}`;
  }
  if (state.reason?.includes('expired') === true)
    return ':hourglass: Expired: nobody approved in time. Request the cutover again.';
  return `:no_entry_sign: Closed: ${escape(state.reason ?? state.phase)}`;
}

function planLines(state: RunState): string[] {
  const actions = state.plan?.actions ?? [];
  const shown = actions.slice(0, MAX_ACTIONS_SHOWN).map((a, i) => `${i + 1}. ${escape(a)}`);
  if (actions.length > shown.length) shown.push(`… and ${actions.length - shown.length} more`);
  return shown;
}

export function approvalCard(state: RunState, settings: ApproverSettings): ChatMessage {
  const open = state.phase === 'awaiting-approval';
  const emoji = open ? ':rotating_light:' : state.outcome === 'refused' ? ':no_entry:' : ':lock:';
  const ttl =
    state.expiresAt === undefined
      ? ''
      : ` · expires ${utcTime(state.expiresAt)} (${duration(Date.parse(state.expiresAt) - Date.parse(state.createdAt))})`;
  const hash = state.planHash === undefined ? '' : ` · plan \`${state.planHash}\``;
  const blocks: KnownBlock[] = [
    section(
      `${emoji} *${escape(title(state))}*\nRequested by ${escapeKeepingMentions(actorName(state.requester))}${open ? ttl : ''}${hash}`,
    ),
  ];
  const plan = planLines(state);
  if (plan.length > 0) {
    for (const chunk of chunkLines(['*What will happen*', ...plan], 2900))
      blocks.push(section(chunk));
  }
  const preflight = state.steps.find((s) => s.id === 'node-preflight' && s.status === 'done');
  if (preflight?.note !== undefined) {
    blocks.push(section(`*Node pre-flight:* :white_check_mark: ${escape(preflight.note)}`));
  }
  if (state.options.dryRun) blocks.push(context('dry run: nothing will be written'));
  if (open) {
    const actions: ActionsBlock = {
      type: 'actions',
      block_id: 'approval',
      elements: [
        {
          type: 'button',
          action_id: ACTION.approve,
          text: { type: 'plain_text', text: 'Approve' },
          style: 'primary',
          value: state.id,
        },
        {
          type: 'button',
          action_id: ACTION.reject,
          text: { type: 'plain_text', text: 'Reject' },
          style: 'danger',
          value: state.id,
        },
      ],
    };
    blocks.push(actions);
  } else {
    blocks.push(section(decisionLine(state)));
  }
  blocks.push(context(`${approverList(settings)} · run \`${state.id}\``));
  const text = open
    ? `${title(state)}: waiting for approval`
    : `${title(state)}: ${decisionLine(state).replace(/^:[a-z_]+: /, '')}`;
  return { text, blocks };
}
