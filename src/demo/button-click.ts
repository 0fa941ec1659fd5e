/** A button click as Slack delivers it: a signed `block_actions` payload naming the message. */
import { signedPost } from './slash-command.js';

export interface ButtonClick {
  actionId: string;
  value: string;
  userId: string;
  userName: string;
  teamId: string;
  channelId: string;
  messageTs: string;
  threadTs?: string;
  responseUrl: string;
}

export function sendButtonClick(
  url: string,
  signingSecret: string,
  click: ButtonClick,
): Promise<Response> {
  const payload = {
    type: 'block_actions',
    user: {
      id: click.userId,
      username: click.userName,
      name: click.userName,
      team_id: click.teamId,
    },
    api_app_id: 'A0DEMO',
    team: { id: click.teamId, domain: 'demo' },
    container: {
      type: 'message',
      message_ts: click.messageTs,
      channel_id: click.channelId,
      is_ephemeral: false,
      ...(click.threadTs === undefined ? {} : { thread_ts: click.threadTs }),
    },
    channel: { id: click.channelId, name: 'ops' },
    message: { type: 'message', ts: click.messageTs, text: '', bot_id: 'B0BOT' },
    trigger_id: `${Date.now()}.demo`,
    response_url: click.responseUrl,
    actions: [
      {
        type: 'button',
        action_id: click.actionId,
        block_id: 'demo',
        value: click.value,
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
  return signedPost(
    url,
    signingSecret,
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
  );
}

export interface ViewSubmission {
  viewId: string;
  view: Record<string, unknown>;
  /** block_id → action_id → value. */
  values: Record<string, Record<string, string>>;
  userId: string;
  userName: string;
  teamId: string;
}

/** A modal's submit, as Slack delivers it: a signed `view_submission` payload. */
export function sendViewSubmission(
  url: string,
  signingSecret: string,
  submission: ViewSubmission,
): Promise<Response> {
  const values = Object.fromEntries(
    Object.entries(submission.values).map(([block, actions]) => [
      block,
      Object.fromEntries(
        Object.entries(actions).map(([action, value]) => [
          action,
          { type: 'plain_text_input', value },
        ]),
      ),
    ]),
  );
  const payload = {
    type: 'view_submission',
    team: { id: submission.teamId, domain: 'demo' },
    user: {
      id: submission.userId,
      username: submission.userName,
      name: submission.userName,
      team_id: submission.teamId,
    },
    api_app_id: 'A0DEMO',
    trigger_id: `${Date.now()}.demo`,
    view: {
      ...submission.view,
      id: submission.viewId,
      team_id: submission.teamId,
      state: { values },
    },
  };
  return signedPost(
    url,
    signingSecret,
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
  );
}
