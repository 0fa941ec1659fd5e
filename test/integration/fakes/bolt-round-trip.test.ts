import type { AddressInfo } from 'node:net';
import { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack.js';
import { capturingLogger } from '../../fakes/slack-client.js';
import {
  blockActionsBody,
  buttonClickPayload,
  nowSeconds,
  postSigned,
  slashCommandBody,
} from '../../fakes/slack-signing.js';

/**
 * The harness against a real Bolt app: if Bolt accepts the signed requests and its respond() and
 * client land in the fake, product tests can rely on the same path.
 */
describe('Bolt against the fake Slack', () => {
  const secret = 'bolt-signing-secret';
  let fake: FakeSlack;
  let app: App;
  let eventsUrl: string;

  beforeAll(async () => {
    fake = await startFakeSlack();
    app = new App({
      token: fake.botToken,
      signingSecret: secret,
      logger: capturingLogger(),
      clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
    });
    app.command('/proxy-migrate', async ({ ack, respond, client, command }) => {
      await ack();
      await respond({ text: `planning ${command.text}` });
      await client.chat.postMessage({
        channel: command.channel_id,
        text: 'Approve?',
        blocks: [
          {
            type: 'actions',
            block_id: 'gate',
            elements: [
              {
                type: 'button',
                action_id: 'approve',
                value: 'run-1',
                text: { type: 'plain_text', text: 'Approve' },
              },
            ],
          },
        ],
      });
    });
    app.action('approve', async ({ ack, respond, body }) => {
      await ack();
      await respond({ replace_original: true, text: `approved by ${body.user.id}` });
    });
    const server = await app.start(0);
    eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });
  afterAll(async () => {
    await app.stop();
    await fake.close();
  });

  it('runs a slash command and a button click end to end', async () => {
    const command = slashCommandBody({ text: 'prod-eu', response_url: fake.responseUrl('cmd') });
    expect((await postSigned(eventsUrl, command, { secret })).status).toBe(200);
    const posted = await fake.waitFor((f) => f.messages[0]);
    expect(fake.responses.map((r) => r.body.text)).toEqual(['planning prod-eu']);
    // Bolt authorizes with auth.test, so the fake's identity is what the app sees as itself.
    expect((await fake.waitForCall('auth.test')).status).toBe(200);

    const click = buttonClickPayload({
      actionId: 'approve',
      value: 'run-1',
      messageTs: posted.ts,
      responseUrl: fake.responseUrl('click', { channel: posted.channel, ts: posted.ts }),
      message: posted,
    });
    expect((await postSigned(eventsUrl, blockActionsBody(click), { secret })).status).toBe(200);
    await fake.waitFor((f) => f.messages[0]?.text === 'approved by U0ALICE');
    expect(fake.messages[0]?.updates).toBe(1);
  });

  it('refuses forged and stale requests', async () => {
    const body = slashCommandBody({ text: 'prod-eu', response_url: fake.responseUrl() });
    const forged = await postSigned(eventsUrl, body, { secret, signature: 'v0=deadbeef' });
    const stale = await postSigned(eventsUrl, body, { secret, timestamp: nowSeconds() - 600 });
    expect([forged.status, stale.status]).toEqual([401, 401]);
  });
});
