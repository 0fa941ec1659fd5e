/**
 * Who may press which button of a run. A click is a request from the internet: its button value
 * names a run and nothing else is trusted, so every rule is checked against the saved run and
 * the cluster's configuration, at every click (Teleport removed in-Slack approvals over exactly
 * this; bots that trusted their buttons skipped the allow-list their slash commands used). Pure:
 * the caller reads the run, the user-group members and the clock, and signals only on `ok`.
 */
import type { ClusterConfig } from '../config.js';
import type { Actor, RunState } from './run-state.js';

export const clickKinds = ['approve', 'reject', 'rollback'] as const;
export type ClickKind = (typeof clickKinds)[number];

/** The click as Slack delivered it, minus everything a client could forge into the value. */
export interface Click {
  kind: ClickKind;
  /** `payload.user`: for Slack Connect the user's own team, not the channel's. */
  userId: string;
  userTeamId: string;
  channelId: string;
  /** The message the button sits in. */
  messageTs: string;
}

export interface ClickContext {
  /** The workspace the app is installed in (auth.test). */
  homeTeamId: string;
  cluster: Pick<ClusterConfig, 'name' | 'approvers' | 'fourEyes' | 'rollbackNeedsApproval'>;
  /** Members of the cluster's approver user groups, as read now (or recently). */
  groupMembers: ReadonlySet<string>;
  now: Date;
}

export type ClickVerdict =
  | { ok: true; actor: Extract<Actor, { kind: 'slack' }> }
  | { ok: false; reason: string; code: ClickRefusalCode };

export const clickRefusalCodes = [
  'WRONG_MESSAGE',
  'OTHER_TEAM',
  'NOT_APPROVER',
  'OWN_REQUEST',
  'NOT_WAITING',
  'EXPIRED',
  'NOT_ROLLBACKABLE',
] as const;
export type ClickRefusalCode = (typeof clickRefusalCodes)[number];

const no = (code: ClickRefusalCode, reason: string): ClickVerdict => ({ ok: false, code, reason });

/** The messages of a run whose buttons act on it: its status card and its approval card. */
export function runMessages(state: RunState): string[] {
  return ['cardTs', 'approvalTs', 'resultTs']
    .map((k) => state.facts[k])
    .filter((ts): ts is string => typeof ts === 'string');
}

export function isApprover(userId: string, context: ClickContext): boolean {
  return context.cluster.approvers.users.includes(userId) || context.groupMembers.has(userId);
}

function requestedBy(state: RunState, userId: string, teamId: string): boolean {
  const r = state.requester;
  return r.kind === 'slack' && r.userId === userId && r.teamId === teamId;
}

/**
 * Decides whether `click` may act on `state`. The order matters only for the message: a stranger
 * is told they are not an approver, not that the run expired.
 */
export function authorizeClick(state: RunState, click: Click, context: ClickContext): ClickVerdict {
  // A value naming another run (tampered, or copied from another message) is refused: the button
  // must sit on one of this run's own messages, in its own channel.
  if (state.options.channel !== click.channelId || !runMessages(state).includes(click.messageTs)) {
    return no('WRONG_MESSAGE', 'this button does not belong to that run');
  }
  if (click.userTeamId !== context.homeTeamId) {
    return no(
      'OTHER_TEAM',
      'only members of the workspace that runs proxy-migrate may act on its runs',
    );
  }
  const actor = { kind: 'slack', userId: click.userId, teamId: click.userTeamId } as const;
  const approver = isApprover(click.userId, context);
  const requester = requestedBy(state, click.userId, click.userTeamId);
  switch (click.kind) {
    case 'approve': {
      if (!approver) {
        return no('NOT_APPROVER', `you are not an approver of cluster ${context.cluster.name}`);
      }
      if (requester && context.cluster.fourEyes) {
        return no(
          'OWN_REQUEST',
          'you requested this run, and four-eyes is on: another approver must approve it',
        );
      }
      return waiting(state, context, actor);
    }
    case 'reject': {
      // The requester may withdraw their own request; anyone else must be an approver.
      if (!approver && !requester) {
        return no('NOT_APPROVER', `you are not an approver of cluster ${context.cluster.name}`);
      }
      return waiting(state, context, actor);
    }
    case 'rollback': {
      if (state.kind !== 'cutover' || state.phase !== 'done') {
        return no('NOT_ROLLBACKABLE', 'only an ended cutover can be rolled back from its card');
      }
      if (state.outcome === 'refused' || state.outcome === 'failed') {
        return no('NOT_ROLLBACKABLE', 'that cutover wrote nothing, so there is nothing to undo');
      }
      if (!approver && !requester) {
        return no(
          'NOT_APPROVER',
          `only the requester or an approver of cluster ${context.cluster.name} may roll back`,
        );
      }
      return { ok: true, actor };
    }
  }
}

function waiting(
  state: RunState,
  context: ClickContext,
  actor: Extract<Actor, { kind: 'slack' }>,
): ClickVerdict {
  if (state.phase !== 'awaiting-approval') {
    const decided = state.approvals.at(-1);
    const what =
      decided === undefined
        ? `it is ${state.phase}${state.outcome === undefined ? '' : ` (${state.outcome})`}`
        : `it was already ${decided.decision} by ${decided.by.kind === 'slack' ? `<@${decided.by.userId}>` : decided.by.user} at ${decided.at.slice(11, 16)} UTC`;
    return no('NOT_WAITING', `this run no longer waits for approval: ${what}`);
  }
  if (state.expiresAt !== undefined && context.now.getTime() >= Date.parse(state.expiresAt)) {
    return no('EXPIRED', 'the approval request has expired; request the cutover again');
  }
  return { ok: true, actor };
}

/** Whether a rollback requested by `actor` (slash command or button) still needs an approval. */
export function rollbackPreApproved(userId: string, context: ClickContext): boolean {
  return !context.cluster.rollbackNeedsApproval && isApprover(userId, context);
}
