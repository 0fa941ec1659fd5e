import { verifySlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  blockActionsBody,
  buttonClickPayload,
  nowSeconds,
  signSlackRequest,
  slashCommandBody,
} from '../../fakes/slack-signing.js';

describe('Slack request signing', () => {
  const secret = 'shhh-signing-secret';

  const verify = (body: string, headers: ReturnType<typeof signSlackRequest>): void =>
    verifySlackRequest({
      signingSecret: secret,
      body,
      headers: {
        'x-slack-signature': headers['x-slack-signature'],
        'x-slack-request-timestamp': Number(headers['x-slack-request-timestamp']),
      },
    });

  it('matches the example in Slack’s signing documentation', () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(signSlackRequest('8f742231b10e8888abcd99yyyzzz85a5', body, 1531420618)).toEqual({
      'x-slack-request-timestamp': '1531420618',
      'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    });
  });

  it('passes Bolt’s verification, and fails it when tampered or stale', () => {
    const body = slashCommandBody({
      text: 'plan prod-eu',
      response_url: 'http://127.0.0.1:1/respond/x',
    });
    expect(() => verify(body, signSlackRequest(secret, body))).not.toThrow();
    expect(() => verify(`${body}&x=1`, signSlackRequest(secret, body))).toThrow(
      /signature mismatch/,
    );
    expect(() => verify(body, signSlackRequest(secret, body, nowSeconds() - 6 * 60))).toThrow(
      /stale/,
    );
  });

  it('builds the slash command and button payloads Slack sends', () => {
    const command = new URLSearchParams(
      slashCommandBody({ text: 'status', response_url: 'http://x/respond/1' }),
    );
    expect(Object.fromEntries(command)).toMatchObject({
      command: '/proxy-migrate',
      text: 'status',
      user_id: 'U0ALICE',
      user_name: 'alice',
      team_id: 'T0TEST',
      channel_id: 'C0OPS',
      is_enterprise_install: 'false',
      response_url: 'http://x/respond/1',
    });
    expect(command.get('trigger_id')).toMatch(/\S+/);

    const blocks = [
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: 'approve', text: { type: 'plain_text', text: 'Approve' } },
        ],
        block_id: 'gate',
      },
    ];
    const payload = buttonClickPayload({
      actionId: 'approve',
      value: 'run-7',
      messageTs: '1700000000.000100',
      responseUrl: 'http://x/respond/2',
      message: { text: 'ok?', blocks },
    });
    const decoded = JSON.parse(
      new URLSearchParams(blockActionsBody(payload)).get('payload')!,
    ) as Record<string, unknown>;
    expect(decoded).toMatchObject({
      type: 'block_actions',
      user: { id: 'U0ALICE', team_id: 'T0TEST' },
      container: {
        type: 'message',
        message_ts: '1700000000.000100',
        channel_id: 'C0OPS',
        is_ephemeral: false,
      },
      message: { ts: '1700000000.000100', blocks },
      response_url: 'http://x/respond/2',
      actions: [
        {
          type: 'button',
          action_id: 'approve',
          block_id: 'gate',
          value: 'run-7',
          text: { text: 'Approve' },
        },
      ],
    });
  });
});
