import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createBoltApp } from '../../../src/adapters/slack/bolt-app.js';
import { signSlackRequest, slashCommandBody } from '../../fakes/slack-signing.js';
import { captureLog } from '../../helpers/log-capture.js';

async function post(server: Server, body: string, headers: Record<string, string>) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/slack/events', method: 'POST', headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const identity = { botId: 'B0BOT', botUserId: 'U0BOT', teamId: 'T0TEST', team: 'test' };

describe('createBoltApp', () => {
  it('mounts an HTTP receiver on /slack/events when there is no app token', () => {
    const bolt = createBoltApp(
      { botToken: 'xoxb-1', signingSecret: 'abcdef0123456789' },
      identity,
      captureLog().logger,
    );
    expect(bolt.socketMode).toBe(false);
    expect(typeof bolt.listener).toBe('function');
  });

  it('refuses even a well-signed request that did not come through the edge guard', async () => {
    const secret = 'abcdef0123456789';
    const log = captureLog();
    const bolt = createBoltApp({ botToken: 'xoxb-1', signingSecret: secret }, identity, log.logger);
    let ran = false;
    bolt.app.command(/.*/, async ({ ack }) => {
      ran = true;
      await ack();
    });
    const body = slashCommandBody({ text: 'help', response_url: 'http://127.0.0.1:9/unused' });
    const status = await post(createServer(bolt.listener), body, {
      'content-type': 'application/x-www-form-urlencoded',
      ...signSlackRequest(secret, body),
    });
    expect(status).toBe(401);
    expect(ran).toBe(false);
  });

  it('switches to Socket Mode when an app-level token is set, with no HTTP listener', () => {
    const bolt = createBoltApp(
      { botToken: 'xoxb-1', appToken: 'xapp-1-A0-1-abc' },
      identity,
      captureLog().logger,
    );
    expect(bolt.socketMode).toBe(true);
    expect(bolt.listener).toBeUndefined();
  });

  it('refuses HTTP mode without a signing secret, saying where to find it', () => {
    expect(() => createBoltApp({ botToken: 'xoxb-1' }, identity, captureLog().logger)).toThrow(
      /SLACK_SIGNING_SECRET is required in HTTP mode/,
    );
  });
});
