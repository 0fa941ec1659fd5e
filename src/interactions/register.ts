/**
 * Registers the run buttons and the reject modal with Bolt. Every handler acks first (Slack
 * wants an answer within 3 seconds), lets the other requests of a burst have theirs, then
 * authorizes and acts; whatever goes wrong, the person who clicked is told in one sentence, and
 * nothing throws out of a handler.
 */
import type { App, RespondFn } from '@slack/bolt';
import { approveClick, type ClickOutcome } from './approve.js';
import { ACTION, VIEW } from './ids.js';
import { readRejectForm, rejectClick, rejectSubmit } from './reject.js';
import { repairDriftClick } from './repair-drift.js';
import { rollbackClick } from './rollback.js';
import type { InteractionDeps } from './types.js';

const FAILED =
  'That did not work: the bot could not finish the request. Nothing was changed by this click; try again in a minute.';

type Tell = (text: string) => Promise<unknown>;

/** Answers through the click's response_url, as a message only the clicker sees. */
const viaResponseUrl =
  (respond: RespondFn): Tell =>
  (text) =>
    respond({ response_type: 'ephemeral', replace_original: false, text });

async function guarded(
  deps: InteractionDeps,
  tell: Tell,
  what: string,
  work: () => Promise<ClickOutcome>,
): Promise<void> {
  let outcome: ClickOutcome;
  try {
    outcome = await work();
  } catch (error) {
    deps.logger.error({ err: error, click: what }, 'click failed');
    outcome = { reply: FAILED };
  }
  if (outcome.reply === undefined) return;
  try {
    await tell(outcome.reply);
  } catch (error) {
    deps.logger.warn({ err: error, click: what }, 'could not answer a click');
  }
}

export function registerInteractions(app: App, deps: InteractionDeps): void {
  app.action(ACTION.approve, async ({ ack, body, respond }) => {
    await ack();
    await deps.foreground?.quiet();
    await guarded(deps, viaResponseUrl(respond), 'approve', () => approveClick(deps, body));
  });

  app.action(ACTION.repairDrift, async ({ ack, body, respond }) => {
    await ack();
    await deps.foreground?.quiet();
    await guarded(deps, viaResponseUrl(respond), 'repair', () => repairDriftClick(deps, body));
  });

  app.action(ACTION.rollback, async ({ ack, body, respond }) => {
    await ack();
    await deps.foreground?.quiet();
    await guarded(deps, viaResponseUrl(respond), 'rollback', () => rollbackClick(deps, body));
  });

  app.action(ACTION.reject, async ({ ack, body, respond, client }) => {
    await ack();
    await deps.foreground?.quiet();
    await deps.foreground?.quiet();
    await guarded(deps, viaResponseUrl(respond), 'reject', async () => {
      const result = await rejectClick(deps, body);
      if ('reply' in result) return result;
      await client.views.open({ trigger_id: result.triggerId, view: result.modal });
      return {};
    });
  });

  app.view(VIEW.rejectReason, async ({ ack, body, client }) => {
    const form = readRejectForm(body);
    if ('errors' in form) {
      await ack({ response_action: 'errors', errors: form.errors });
      return;
    }
    await ack();
    await deps.foreground?.quiet();
    if ('invalid' in form) {
      deps.logger.info({ why: form.invalid }, 'reject form ignored');
      return;
    }
    // A modal has no response_url: the answer is an ephemeral message in the run's channel.
    const tell: Tell = (text) =>
      client.chat.postEphemeral({ channel: form.metadata.channelId, user: form.userId, text });
    await guarded(deps, tell, 'reject-submit', () => rejectSubmit(deps, form));
  });
}
