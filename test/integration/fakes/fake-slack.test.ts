import {
  ErrorCode,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  type KnownBlock,
  type WebClient,
} from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack.js';
import { fakeSlackClient } from '../../fakes/slack-client.js';

const section = (text: string): KnownBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text },
});

const button = (text: string, actionId = 'approve'): KnownBlock => ({
  type: 'actions',
  elements: [
    { type: 'button', action_id: actionId, text: { type: 'plain_text', text }, value: 'v' },
  ],
});

/** Awaits a rejection and hands back the error, so its fields can be asserted directly. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to be rejected');
}

async function platformError(promise: Promise<unknown>): Promise<WebAPIPlatformError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(WebAPIPlatformError);
  return error as WebAPIPlatformError;
}

describe('fake Slack Web API', () => {
  let fake: FakeSlack;
  let client: WebClient;

  beforeAll(async () => {
    fake = await startFakeSlack({ userGroups: { S0ONCALL: ['U0ALICE', 'U0BOB'] } });
    client = fakeSlackClient(fake);
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
  });

  it('serves auth.test with the bot identity and the api URL WebClient needs', async () => {
    expect(fake.apiUrl).toBe(`${fake.url}/api/`);
    const result = await client.auth.test();
    expect(result).toMatchObject({
      ok: true,
      team_id: 'T0TEST',
      user_id: 'U0BOT',
      bot_id: 'B0BOT',
    });
    const [call] = fake.callsTo('auth.test');
    expect(call?.token).toBe('xoxb-test-token');
    expect(call?.args).not.toHaveProperty('token');
  });

  it('records messages, thread replies and updates with blocks decoded', async () => {
    const blocks = [section('*Plan* for prod-eu')];
    const root = await client.chat.postMessage({ channel: 'C0OPS', text: 'plan', blocks });
    const reply = await client.chat.postMessage({
      channel: 'C0OPS',
      text: 'step 1',
      thread_ts: root.ts!,
    });
    // A reply to a reply joins the root's thread, as in Slack.
    await client.chat.postMessage({ channel: 'C0OPS', text: 'step 2', thread_ts: reply.ts! });
    await client.chat.update({ channel: 'C0OPS', ts: root.ts!, text: 'plan (done)' });

    expect(root.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(reply.ts! > root.ts!).toBe(true);
    expect(fake.callsTo('chat.postMessage')[0]?.args.blocks).toEqual(blocks);
    expect(fake.messages.map((m) => [m.text, m.thread_ts, m.updates])).toEqual([
      ['plan (done)', undefined, 1],
      ['step 1', root.ts, 0],
      ['step 2', root.ts, 0],
    ]);
    expect(fake.findMessage('C0OPS', root.ts!)?.blocks).toEqual(blocks);
  });

  it('answers the errors Slack gives for bad targets', async () => {
    const codes = await Promise.all([
      platformError(
        client.chat.postMessage({ channel: 'C0OPS', text: 'x', thread_ts: '1.000000' }),
      ),
      platformError(client.chat.postMessage({ channel: 'CNOTIN01', text: 'x' })),
      platformError(client.chat.postMessage({ channel: 'C0OPS', text: '' })),
      platformError(client.apiCall('chat.postMessage', { text: 'no channel' })),
      platformError(client.chat.update({ channel: 'C0OPS', ts: '1.000000', text: 'x' })),
      platformError(client.apiCall('admin.users.list', { team_id: 'T0TEST' })),
    ]);
    expect(codes.map((error) => error.data.error)).toEqual([
      'thread_not_found',
      'not_in_channel',
      'no_text',
      'channel_not_found',
      'message_not_found',
      'unknown_method',
    ]);
  });

  it('records ephemerals', async () => {
    const result = await client.chat.postEphemeral({
      channel: 'C0OPS',
      user: 'U0ALICE',
      text: 'only you',
    });
    expect(fake.ephemerals).toEqual([
      {
        channel: 'C0OPS',
        user: 'U0ALICE',
        message_ts: result.message_ts,
        text: 'only you',
        blocks: [],
      },
    ]);
  });

  const longId = (length: number): KnownBlock => ({
    type: 'actions',
    elements: [
      { type: 'button', action_id: 'a'.repeat(length), text: { type: 'plain_text', text: 'Go' } },
    ],
  });
  const limitCases = [
    {
      name: 'blocks',
      ok: Array.from({ length: 50 }, () => section('x')),
      bad: Array.from({ length: 51 }, () => section('x')),
      pointer: '/blocks]',
    },
    {
      name: 'section text',
      ok: [section('s'.repeat(3000))],
      bad: [section('s'.repeat(3001))],
      pointer: '/blocks/0/text/text',
    },
    {
      name: 'button text',
      ok: [button('b'.repeat(75))],
      bad: [button('b'.repeat(76))],
      pointer: '/blocks/0/elements/0/text/text',
    },
    {
      name: 'action_id',
      ok: [longId(255)],
      bad: [longId(256)],
      pointer: '/blocks/0/elements/0/action_id',
    },
  ];

  it.each(limitCases)(
    'accepts $name at the limit and refuses one over',
    async ({ ok, bad, pointer }) => {
      await expect(
        client.chat.postMessage({ channel: 'C0OPS', text: 't', blocks: ok }),
      ).resolves.toMatchObject({ ok: true });
      const error = await platformError(
        client.chat.postMessage({ channel: 'C0OPS', text: 't', blocks: bad }),
      );
      expect(error.data.error).toBe('invalid_blocks');
      expect(error.data).toMatchObject({ errors: [expect.stringContaining(pointer)] });
      expect(error.data.response_metadata?.messages?.[0]).toMatch(/^\[ERROR\] /);
    },
  );

  it('refuses more than 12,000 characters of text in total, and the same on chat.update', async () => {
    const atLimit = Array.from({ length: 4 }, () => section('t'.repeat(3000)));
    const over = [...atLimit, section('!')];
    const posted = await client.chat.postMessage({ channel: 'C0OPS', text: 't', blocks: atLimit });
    const error = await platformError(
      client.chat.update({ channel: 'C0OPS', ts: posted.ts!, blocks: over }),
    );
    expect(error.data.error).toBe('msg_blocks_too_long');
    expect(fake.messages[0]?.updates).toBe(0);
  });

  it('surfaces an injected error as a platform error, once', async () => {
    fake.injectError('chat.postMessage', 'channel_is_archived');
    const error = await platformError(client.chat.postMessage({ channel: 'C0OPS', text: 'x' }));
    expect(error.code).toBe(ErrorCode.PlatformError);
    expect(error.data.error).toBe('channel_is_archived');
    await expect(client.chat.postMessage({ channel: 'C0OPS', text: 'x' })).resolves.toMatchObject({
      ok: true,
    });
  });

  it('surfaces an injected 429 as a rate-limited error with its Retry-After', async () => {
    const impatient = fakeSlackClient(fake, { rejectRateLimitedCalls: true });
    fake.injectRateLimit('chat.update', 7, 2);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await rejectionOf(
        impatient.chat.update({ channel: 'C0OPS', ts: '1.0', text: 'x' }),
      );
      expect(error).toBeInstanceOf(WebAPIRateLimitedError);
      expect((error as WebAPIRateLimitedError).retryAfter).toBe(7);
    }
    expect(fake.callsTo('chat.update').map((call) => call.status)).toEqual([429, 429]);
    await platformError(impatient.chat.update({ channel: 'C0OPS', ts: '1.0', text: 'x' }));
  });

  it('round-trips filesUploadV2 into a thread, text and binary alike', async () => {
    const root = await client.chat.postMessage({ channel: 'C0OPS', text: 'run' });
    const bytes = Buffer.from([0, 1, 2, 254, 255]);
    const result = await client.filesUploadV2({
      channel_id: 'C0OPS',
      thread_ts: root.ts!,
      initial_comment: 'logs attached',
      file_uploads: [
        { content: 'node-1: ok\nnode-2: ok\n', filename: 'report.txt', title: 'Report' },
        { file: bytes, filename: 'dump.bin' },
      ],
    });
    expect(result.ok).toBe(true);
    expect(
      fake.files.map((f) => [f.filename, f.title, f.channel, f.thread_ts, f.initial_comment]),
    ).toEqual([
      ['report.txt', 'Report', 'C0OPS', root.ts, 'logs attached'],
      ['dump.bin', 'dump.bin', 'C0OPS', root.ts, 'logs attached'],
    ]);
    expect(fake.files[0]?.text).toBe('node-1: ok\nnode-2: ok\n');
    expect(fake.files[1]?.content.equals(bytes)).toBe(true);
    // Form encoding: the numeric length arrives as a string, `files` as decoded JSON.
    expect(fake.callsTo('files.getUploadURLExternal')[0]?.args).toEqual({
      filename: 'report.txt',
      length: '22',
    });
    const [complete] = fake.callsTo('files.completeUploadExternal');
    expect(complete?.args.files).toEqual([
      { id: fake.files[0]?.id, title: 'Report' },
      { id: fake.files[1]?.id, title: 'dump.bin' },
    ]);
  });

  it('lists user group members and refuses unknown groups', async () => {
    await expect(client.usergroups.users.list({ usergroup: 'S0ONCALL' })).resolves.toMatchObject({
      users: ['U0ALICE', 'U0BOB'],
    });
    fake.setUserGroup('S0EMPTY', []);
    await expect(client.usergroups.users.list({ usergroup: 'S0EMPTY' })).resolves.toMatchObject({
      users: [],
    });
    const error = await platformError(client.usergroups.users.list({ usergroup: 'S0NOPE' }));
    expect(error.data.error).toBe('no_such_subteam');
  });

  it('refuses a wrong token with invalid_auth and records which token was used', async () => {
    const stranger = fakeSlackClient(fake, {}, 'xoxb-wrong');
    const error = await platformError(stranger.chat.postMessage({ channel: 'C0OPS', text: 'x' }));
    expect(error.data.error).toBe('invalid_auth');
    expect(fake.calls[0]?.token).toBe('xoxb-wrong');
    // A per-call token overrides the client's, as Bolt's authorize does.
    await expect(stranger.auth.test({ token: fake.botToken })).resolves.toMatchObject({ ok: true });
    expect(fake.messages).toEqual([]);
  });

  it('records response_url posts and expires the URL after five', async () => {
    const url = fake.responseUrl('cmd-1');
    const post = (body: unknown): Promise<Response> =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (let use = 1; use <= 5; use += 1)
      expect((await post({ text: `update ${use}` })).status).toBe(200);
    const sixth = await post({ text: 'too late' });
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toEqual({ ok: false, error: 'expired_url' });
    expect(fake.responses.map((r) => [r.id, r.body.text, r.status])).toEqual([
      ['cmd-1', 'update 1', 200],
      ['cmd-1', 'update 2', 200],
      ['cmd-1', 'update 3', 200],
      ['cmd-1', 'update 4', 200],
      ['cmd-1', 'update 5', 200],
      ['cmd-1', 'too late', 404],
    ]);
    const refused = await fetch(fake.responseUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocks: [section('s'.repeat(3001))] }),
    });
    expect(refused.status).toBe(400);
  });

  it('applies replace_original to the message a response_url belongs to', async () => {
    const posted = await client.chat.postMessage({
      channel: 'C0OPS',
      text: 'approve?',
      blocks: [button('Approve')],
    });
    const url = fake.responseUrl('click', { channel: 'C0OPS', ts: posted.ts! });
    await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ replace_original: true, text: 'approved by alice' }),
    });
    expect(fake.messages[0]).toMatchObject({ text: 'approved by alice', blocks: [], updates: 1 });
  });

  it('waits for calls and explains a timeout', async () => {
    setTimeout(() => void client.chat.postMessage({ channel: 'C0OPS', text: 'later' }), 50);
    const call = await fake.waitForCall('chat.postMessage', (c) => c.args.text === 'later');
    expect(call.status).toBe(200);
    await expect(fake.waitFor((f) => f.messages.length > 5, 100)).rejects.toThrow(
      /timed out after 100ms[\s\S]*chat\.postMessage → 200 ok/,
    );
  });

  describe('fault injection', () => {
    it('answers 429 with Retry-After for a period, then serves again', async () => {
      fake.rateLimitFor('chat.postMessage', 300, 7);
      const error = await rejectionOf(
        fakeSlackClient(fake, { rejectRateLimitedCalls: true }).chat.postMessage({
          channel: 'C1',
          text: 'x',
        }),
      );
      expect(error).toBeInstanceOf(WebAPIRateLimitedError);
      expect((error as WebAPIRateLimitedError).retryAfter).toBe(7);
      await new Promise((resolve) => setTimeout(resolve, 350));
      await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).resolves.toMatchObject({
        ok: true,
      });
    });

    it('closes a channel to some methods or to all, until restored', async () => {
      const { ts } = await client.chat.postMessage({ channel: 'C2', text: 'card' });
      fake.failChannel('C2', 'not_in_channel', ['chat.postMessage']);
      expect(
        (await platformError(client.chat.postMessage({ channel: 'C2', text: 'r' }))).data.error,
      ).toBe('not_in_channel');
      await expect(
        client.chat.update({ channel: 'C2', ts: ts ?? '', text: 'edit' }),
      ).resolves.toMatchObject({
        ok: true,
      });
      fake.failChannel('C2', 'channel_not_found');
      expect(
        (await platformError(client.chat.update({ channel: 'C2', ts: ts ?? '', text: 'e' }))).data
          .error,
      ).toBe('channel_not_found');
      fake.restoreChannel('C2');
      await expect(client.chat.postMessage({ channel: 'C2', text: 'back' })).resolves.toMatchObject(
        {
          ok: true,
        },
      );
    });

    it('carries out a slow call at once and answers after the delay (a client timeout loses it)', async () => {
      fake.slowAnswers('chat.postMessage', 800, 1);
      const impatient = fakeSlackClient(fake, { timeout: 200 });
      const error = await rejectionOf(
        impatient.chat.postMessage({
          channel: 'C3',
          text: 'card',
          metadata: { event_type: 'proxy_migrate_post', event_payload: { key: 'k1' } },
        }),
      );
      expect((error as { code?: string }).code).toBe(ErrorCode.RequestError);
      // It was posted all the same, and the history shows it with its metadata when asked.
      const history = await client.conversations.history({
        channel: 'C3',
        include_all_metadata: true,
      });
      expect(history.messages?.map((m) => m.metadata)).toEqual([
        { event_type: 'proxy_migrate_post', event_payload: { key: 'k1' } },
      ]);
      const bare = await client.conversations.history({ channel: 'C3' });
      expect(bare.messages?.[0]?.metadata).toBeUndefined();
    });

    it('lists a thread with conversations.replies and opens a DM with conversations.open', async () => {
      const { ts } = await client.chat.postMessage({ channel: 'C4', text: 'root' });
      await client.chat.postMessage({ channel: 'C4', text: 'reply', thread_ts: ts ?? '' });
      const thread = await client.conversations.replies({ channel: 'C4', ts: ts ?? '' });
      expect(thread.messages?.map((m) => m.text)).toEqual(['root', 'reply']);
      const dm = await client.conversations.open({ users: 'U0ALICE' });
      expect(dm.channel?.id).toBe('DU0ALICE');
      await client.chat.postMessage({ channel: 'DU0ALICE', text: 'hello' });
      expect(fake.messages.at(-1)).toMatchObject({ channel: 'DU0ALICE', text: 'hello' });
    });

    it('expires one response_url or all of them with 404 expired_url', async () => {
      const post = (id: string) =>
        fetch(fake.responseUrl(id), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'x' }),
        });
      fake.expireResponseUrls('old');
      expect((await post('old')).status).toBe(404);
      expect((await post('fresh')).status).toBe(200);
      fake.expireResponseUrls();
      expect((await post('fresh')).status).toBe(404);
    });
  });
});
