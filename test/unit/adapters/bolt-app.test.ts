import { describe, expect, it } from 'vitest';
import { createBoltApp } from '../../../src/adapters/slack/bolt-app.js';
import { captureLog } from '../../helpers/log-capture.js';

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
