import { createHmac, randomBytes } from 'node:crypto';

/**
 * Requests as Slack sends them to the app: signed, form-encoded, with the fields Slack really
 * includes, so the product's receiver and signature check are exercised rather than bypassed.
 */

export interface SlackSignatureHeaders {
  'x-slack-request-timestamp': string;
  'x-slack-signature': string;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`, as in Slack's signing docs. */
export function signSlackRequest(
  secret: string,
  rawBody: string,
  timestampSeconds: number = nowSeconds(),
): SlackSignatureHeaders {
  const digest = createHmac('sha256', secret)
    .update(`v0:${timestampSeconds}:${rawBody}`)
    .digest('hex');
  return {
    'x-slack-request-timestamp': String(timestampSeconds),
    'x-slack-signature': `v0=${digest}`,
  };
}

const triggerId = (): string =>
  `${Date.now()}.${Math.floor(Math.random() * 1e9)}.${randomBytes(16).toString('hex')}`;

/** 'U0ALICE' → 'alice': readable default user names that stay tied to the id. */
const nameFor = (userId: string): string => userId.replace(/^U0?/, '').toLowerCase() || 'user';

export interface SlashCommandOptions {
  text: string;
  /** Where `respond()` posts: use `fake.responseUrl()`, never a real hooks.slack.com URL. */
  response_url: string;
  command?: string;
  user_id?: string;
  user_name?: string;
  team_id?: string;
  team_domain?: string;
  channel_id?: string;
  channel_name?: string;
  trigger_id?: string;
  api_app_id?: string;
  /** Present when the workspace is part of an Enterprise Grid org. */
  enterprise_id?: string;
  token?: string;
}

/** The form-encoded body of a slash command invocation. */
export function slashCommandBody(options: SlashCommandOptions): string {
  const userId = options.user_id ?? 'U0ALICE';
  return new URLSearchParams({
    token: options.token ?? 'verification-token',
    team_id: options.team_id ?? 'T0TEST',
    team_domain: options.team_domain ?? 'fake-team',
    channel_id: options.channel_id ?? 'C0OPS',
    channel_name: options.channel_name ?? 'ops',
    user_id: userId,
    user_name: options.user_name ?? nameFor(userId),
    command: options.command ?? '/proxy-migrate',
    text: options.text,
    api_app_id: options.api_app_id ?? 'A0TEST',
    is_enterprise_install: 'false',
    ...(options.enterprise_id === undefined ? {} : { enterprise_id: options.enterprise_id }),
    response_url: options.response_url,
    trigger_id: options.trigger_id ?? triggerId(),
  }).toString();
}

/** Interactive payloads arrive as a single form field `payload` holding JSON. */
export function blockActionsBody(payload: object): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export interface ButtonClickOptions {
  actionId: string;
  messageTs: string;
  responseUrl: string;
  value?: string;
  userId?: string;
  userName?: string;
  /** The clicking user's team (`user.team_id`); another team's in Slack Connect. */
  teamId?: string;
  /** The installation's team, which Slack names as the request's `team` (default T0TEST). */
  installTeamId?: string;
  channelId?: string;
  threadTs?: string;
  /** Defaults to the block_id of the button with `actionId` in `message.blocks`. */
  blockId?: string;
  apiAppId?: string;
  /** The message the button sits in, e.g. an entry of `fake.messages`; Slack echoes it back. */
  message?: { text?: string; blocks?: unknown[]; user?: string };
}

interface FoundButton {
  blockId?: string;
  text?: unknown;
  style?: unknown;
}

function findButton(blocks: unknown[] | undefined, actionId: string): FoundButton {
  for (const block of blocks ?? []) {
    if (typeof block !== 'object' || block === null) continue;
    const { block_id: blockId, elements, accessory } = block as Record<string, unknown>;
    const candidates = [...(Array.isArray(elements) ? (elements as unknown[]) : []), accessory];
    for (const element of candidates) {
      if (typeof element !== 'object' || element === null) continue;
      const { action_id: id, text, style } = element as Record<string, unknown>;
      if (id === actionId)
        return { ...(typeof blockId === 'string' ? { blockId } : {}), text, style };
    }
  }
  return {};
}

/** A `block_actions` payload for one button click, shaped like the ones Slack sends. */
export function buttonClickPayload(options: ButtonClickOptions): Record<string, unknown> {
  const userId = options.userId ?? 'U0ALICE';
  const installTeamId = options.installTeamId ?? 'T0TEST';
  const teamId = options.teamId ?? installTeamId;
  const channelId = options.channelId ?? 'C0OPS';
  const button = findButton(options.message?.blocks, options.actionId);
  const actionTs = (Date.now() / 1000).toFixed(6);
  return {
    type: 'block_actions',
    user: {
      id: userId,
      username: options.userName ?? nameFor(userId),
      name: options.userName ?? nameFor(userId),
      team_id: teamId,
    },
    api_app_id: options.apiAppId ?? 'A0TEST',
    token: 'verification-token',
    container: {
      type: 'message',
      message_ts: options.messageTs,
      channel_id: channelId,
      is_ephemeral: false,
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
    },
    trigger_id: triggerId(),
    // In Slack Connect the request still names the installation's team; the user's is above.
    team: { id: installTeamId, domain: 'fake-team' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channelId, name: 'ops' },
    message: {
      type: 'message',
      user: options.message?.user ?? 'U0BOT',
      bot_id: 'B0BOT',
      ts: options.messageTs,
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      text: options.message?.text ?? '',
      blocks: options.message?.blocks ?? [],
      team: installTeamId,
    },
    state: { values: {} },
    response_url: options.responseUrl,
    actions: [
      {
        type: 'button',
        action_id: options.actionId,
        block_id: options.blockId ?? button.blockId ?? 'actions',
        text: button.text ?? { type: 'plain_text', text: options.actionId, emoji: true },
        ...(options.value !== undefined ? { value: options.value } : {}),
        ...(button.style !== undefined ? { style: button.style } : {}),
        action_ts: actionTs,
      },
    ],
  };
}

export interface PostSignedOptions {
  secret: string;
  /** Seconds; an old one signs correctly but is stale. */
  timestamp?: number;
  /** Replaces the computed signature, to forge a bad one. */
  signature?: string;
  /** Defaults to JSON for bodies starting with `{`, form encoding otherwise. */
  contentType?: string;
}

/** POSTs `body` to the app the way Slack does, signed with `secret`. */
export function postSigned(
  url: string,
  body: string,
  options: PostSignedOptions,
): Promise<Response> {
  const signed = signSlackRequest(options.secret, body, options.timestamp ?? nowSeconds());
  const contentType =
    options.contentType ??
    (body.trimStart().startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded');
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...signed,
      ...(options.signature !== undefined ? { 'x-slack-signature': options.signature } : {}),
    },
    body,
  });
}

export interface ViewSubmissionOptions {
  /** The modal as the app opened it (an entry of `fake.views`): callback_id, private_metadata. */
  view: Record<string, unknown>;
  viewId: string;
  /** `state.values`: block_id → action_id → value. */
  values: Record<string, Record<string, string>>;
  userId?: string;
  /** The submitting user's team (`user.team_id`); another team's in Slack Connect. */
  teamId?: string;
  /** The installation's team: the request's `team` and the view's (default T0TEST). */
  installTeamId?: string;
  apiAppId?: string;
}

/** A `view_submission` payload for a modal's submit button, shaped like the ones Slack sends. */
export function viewSubmissionPayload(options: ViewSubmissionOptions): Record<string, unknown> {
  const userId = options.userId ?? 'U0ALICE';
  const installTeamId = options.installTeamId ?? 'T0TEST';
  const teamId = options.teamId ?? installTeamId;
  const values = Object.fromEntries(
    Object.entries(options.values).map(([block, actions]) => [
      block,
      Object.fromEntries(
        Object.entries(actions).map(([action, value]) => [
          action,
          { type: 'plain_text_input', value },
        ]),
      ),
    ]),
  );
  return {
    type: 'view_submission',
    team: { id: installTeamId, domain: 'fake-team' },
    user: { id: userId, username: nameFor(userId), name: nameFor(userId), team_id: teamId },
    api_app_id: options.apiAppId ?? 'A0TEST',
    token: 'verification-token',
    trigger_id: triggerId(),
    view: {
      id: options.viewId,
      team_id: installTeamId,
      type: 'modal',
      blocks: options.view['blocks'] ?? [],
      private_metadata: options.view['private_metadata'] ?? '',
      callback_id: options.view['callback_id'] ?? '',
      state: { values },
      hash: `${Date.now()}.abcdef`,
      title: options.view['title'],
      app_id: options.apiAppId ?? 'A0TEST',
      bot_id: 'B0BOT',
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}
