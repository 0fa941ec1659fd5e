/**
 * Registers the run buttons and the reject modal with Bolt. Every handler acks first (Slack
 * wants an answer within 3 seconds), lets the other requests of a burst have theirs, then
 * authorizes and acts; whatever goes wrong, the person who clicked is told in one sentence, and
 * nothing throws out of a handler.
 */
import type { App, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { approveClick, type ClickOutcome } from './approve.js';
import { ACTION, VIEW } from './ids.js';
import { REASON_BLOCK, readRejectForm, rejectClick, rejectSubmit } from './reject.js';
import { repairDriftClick } from './repair-drift.js';
import { rollbackClick } from './rollback.js';
import type { InteractionDeps } from './types.js';

const FAILED =
  'That did not work: the bot could not finish the request. Nothing was changed by this click; try again in a minute.';

type Tell = (text: string) => Promise<unknown>;

/** Where a click came from, as far as Slack said: for answering without the response_url. */
function clickPlace(
  body: unknown,
): { channel: string; user: string; threadTs?: string } | undefined {
  const b = body as {
    channel?: { id?: unknown };
    user?: { id?: unknown };
    message?: { ts?: unknown; thread_ts?: unknown };
  };
  const channel = b.channel?.id;
  const user = b.user?.id;
  if (typeof channel !== 'string' || typeof user !== 'string') return undefined;
  const thread = b.message?.thread_ts ?? b.message?.ts;
  return { channel, user, ...(typeof thread === 'string' ? { threadTs: thread } : {}) };
}

/**
 * Answers through the click's response_url, as a message only the clicker sees. An expired or
 * used-up response_url falls back to an ephemeral message in the clicked message's thread.
 */
const viaResponseUrl =
  (respond: RespondFn, client: WebClient, body: unknown): Tell =>
  async (text) => {
    try {
      return await respond({ response_type: 'ephemeral', replace_original: false, text });
    } catch (error) {
      const place = clickPlace(body);
      if (place === undefined) throw error;
      return client.chat.postEphemeral({
        channel: place.channel,
        user: place.user,
        text,
        ...(place.threadTs === undefined ? {} : { thread_ts: place.threadTs }),
      });
    }
  };

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
  app.action(ACTION.approve, async ({ ack, body, respond, client }) => {
    await ack();
    await deps.foreground?.quiet();
    await guarded(deps, viaResponseUrl(respond, client, body), 'approve', () =>
      approveClick(deps, body),
    );
  });

  app.action(ACTION.repairDrift, async ({ ack, body, respond, client }) => {
    await ack();
    await deps.foreground?.quiet();
    await guarded(deps, viaResponseUrl(respond, client, body), 'repair', () =>
      repairDriftClick(deps, body),
    );
  });

  app.action(ACTION.rollback, async ({ ack, body, respond, client }) => {
    await ack();
    await deps.foreground?.quiet();
    await guarded(deps, viaResponseUrl(respond, client, body), 'rollback', () =>
      rollbackClick(deps, body),
    );
  });

  app.action(ACTION.reject, async ({ ack, body, respond, client }) => {
    await ack();
    await deps.foreground?.quiet();
    await guarded(deps, viaResponseUrl(respond, client, body), 'reject', async () => {
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
    if ('invalid' in form) {
      // Slack sends back what the bot set, so this is a forged or broken submission; it is still
      // told why in the modal (a modal has nowhere else to answer an unknown submitter).
      deps.logger.info({ why: form.invalid }, 'reject form refused');
      await ack({
        response_action: 'errors',
        errors: {
          [REASON_BLOCK]: `This form cannot be used: ${form.invalid}. Nothing was rejected; press Reject on the approval card again.`,
        },
      });
      return;
    }
    await ack();
    await deps.foreground?.quiet();
    // A modal has no response_url: the answer is an ephemeral message in the run's channel.
    const tell: Tell = (text) =>
      client.chat.postEphemeral({ channel: form.metadata.channelId, user: form.userId, text });
    await guarded(deps, tell, 'reject-submit', () => rejectSubmit(deps, form));
  });
}
