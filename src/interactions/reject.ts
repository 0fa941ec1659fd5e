/**
 * Reject: the click is authorized (an approver, or the requester withdrawing their own run),
 * then a modal asks for the reason; the submission is authorized again (the run may have been
 * approved or expired meanwhile) before the `rejected` signal, so the reason lands on the card
 * and in the record.
 */
import { authorize, clickFacts, RUN_ID, type ClickFacts } from './click.js';
import type { ClickOutcome } from './approve.js';
import { VIEW } from './ids.js';
import type { InteractionDeps } from './types.js';

export const REASON_BLOCK = 'reason';
export const REASON_INPUT = 'reason-text';
const MAX_REASON = 500;
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,30}$/;
const SLACK_ID = /^[A-Z0-9]{2,40}$/;
const MESSAGE_TS = /^\d{1,12}\.\d{1,8}$/;

/** What the modal carries back: set by the bot, still checked like any other input. */
export interface RejectMetadata {
  runId: string;
  channelId: string;
  messageTs: string;
}

export function rejectModal(metadata: RejectMetadata, node: string) {
  return {
    type: 'modal' as const,
    callback_id: VIEW.rejectReason,
    private_metadata: JSON.stringify(metadata),
    title: { type: 'plain_text' as const, text: 'Reject cutover' },
    submit: { type: 'plain_text' as const, text: 'Reject' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      {
        type: 'input' as const,
        block_id: REASON_BLOCK,
        label: { type: 'plain_text' as const, text: `Why not ${node} now?`.slice(0, 150) },
        element: {
          type: 'plain_text_input' as const,
          action_id: REASON_INPUT,
          multiline: true,
          max_length: MAX_REASON,
        },
      },
    ],
  };
}

export type RejectClick =
  { modal: ReturnType<typeof rejectModal>; triggerId: string } | { reply: string };

export async function rejectClick(deps: InteractionDeps, body: unknown): Promise<RejectClick> {
  const facts = clickFacts(body);
  if ('invalid' in facts) return { reply: `That button cannot be used: ${facts.invalid}.` };
  if (facts.triggerId === undefined) return { reply: 'That click carried no trigger; try again.' };
  const auth = await authorize(deps, 'reject', facts);
  if (!auth.ok) return { reply: `Not rejected: ${auth.reason}.` };
  return {
    modal: rejectModal(
      { runId: facts.runId, channelId: facts.channelId, messageTs: facts.messageTs },
      auth.state.node ?? '?',
    ),
    triggerId: facts.triggerId,
  };
}

function parseMetadata(raw: unknown): RejectMetadata | undefined {
  if (typeof raw !== 'string' || raw.length > 1_000) return undefined;
  try {
    const m = JSON.parse(raw) as Partial<Record<keyof RejectMetadata, unknown>>;
    // The shapes the bot wrote: a run id, a channel id and a message ts, nothing else believed
    // (the channel is where the answer goes).
    if (
      typeof m.runId === 'string' &&
      RUN_ID.test(m.runId) &&
      typeof m.channelId === 'string' &&
      CHANNEL_ID.test(m.channelId) &&
      typeof m.messageTs === 'string' &&
      MESSAGE_TS.test(m.messageTs)
    )
      return { runId: m.runId, channelId: m.channelId, messageTs: m.messageTs };
  } catch {
    return undefined;
  }
  return undefined;
}

export interface RejectForm {
  metadata: RejectMetadata;
  reason: string;
  userId: string;
  userTeamId: string;
}

/** Reads the submitted modal without any I/O, so the view is acked at once. */
export function readRejectForm(
  body: unknown,
): RejectForm | { errors: Record<string, string> } | { invalid: string } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const view = (b['view'] ?? {}) as Record<string, unknown>;
  const user = (b['user'] ?? {}) as Record<string, unknown>;
  const metadata = parseMetadata(view['private_metadata']);
  if (metadata === undefined) return { invalid: 'it names no run' };
  const values = (
    (view['state'] ?? {}) as { values?: Record<string, Record<string, { value?: unknown }>> }
  ).values;
  const raw = values?.[REASON_BLOCK]?.[REASON_INPUT]?.value;
  const reason = typeof raw === 'string' ? raw.trim().slice(0, MAX_REASON) : '';
  if (reason === '') return { errors: { [REASON_BLOCK]: 'Say why, for the record.' } };
  const userId = typeof user['id'] === 'string' ? user['id'] : '';
  const userTeamId = typeof user['team_id'] === 'string' ? user['team_id'] : '';
  // The answer is an ephemeral message to this user id: it must be one Slack could have sent
  // (a lone surrogate cannot even be encoded into the Web API call, so nobody was told).
  if (!SLACK_ID.test(userId) || userTeamId === '') return { invalid: 'no user' };
  return { metadata, reason, userId, userTeamId };
}

/** Authorizes the submission again and rejects the run; the reply goes to the submitter. */
export async function rejectSubmit(deps: InteractionDeps, form: RejectForm): Promise<ClickOutcome> {
  const facts: ClickFacts = {
    runId: form.metadata.runId,
    userId: form.userId,
    userTeamId: form.userTeamId,
    channelId: form.metadata.channelId,
    messageTs: form.metadata.messageTs,
  };
  const auth = await authorize(deps, 'reject', facts);
  if (!auth.ok) return { reply: `Not rejected: ${auth.reason}.` };
  const result = await deps.runs.signal(auth.state.id, {
    type: 'rejected',
    by: auth.verdict.actor,
    at: deps.clock.now().toISOString(),
    reason: form.reason,
  });
  if (result.refused !== undefined) return { reply: `Not rejected: ${result.refused}.` };
  deps.logger.info({ runId: auth.state.id, user: facts.userId }, 'run rejected');
  return {};
}
