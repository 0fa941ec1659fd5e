import { createSecretKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkOrigin,
  checkSignature,
  isSslCheck,
  originOf,
  parseSlackBody,
  requestId,
  type SlackBody,
} from '../../../../src/adapters/http/slack-request.js';
import { signSlackRequest } from '../../../fakes/slack-signing.js';

const FORM = 'application/x-www-form-urlencoded';
const secret = '8f742231b10e8888abcd99aaaabbbb85';
const now = 1_800_000_000;

function signed(body: string, timestamp = now) {
  const headers = signSlackRequest(secret, body, timestamp);
  return {
    secret,
    rawBody: Buffer.from(body),
    timestamp: headers['x-slack-request-timestamp'],
    signature: headers['x-slack-signature'],
    nowSeconds: now,
  };
}

describe('checkSignature', () => {
  it('accepts Slack’s v0 signature within five minutes either way', () => {
    expect(checkSignature(signed('a=b'))).toBeUndefined();
    expect(checkSignature(signed('a=b', now - 299))).toBeUndefined();
    expect(checkSignature(signed('a=b', now + 299))).toBeUndefined();
  });

  it('checks alike with the secret made a key object once (as the edge guard does)', () => {
    const key = createSecretKey(Buffer.from(secret, 'utf8'));
    expect(checkSignature({ ...signed('a=b'), secret: key })).toBeUndefined();
    const other = createSecretKey(Buffer.from(`${secret}x`, 'utf8'));
    expect(checkSignature({ ...signed('a=b'), secret: other })).toBe('signature-invalid');
  });

  it('refuses stale and future timestamps, even correctly signed', () => {
    expect(checkSignature(signed('a=b', now - 301))).toBe('timestamp-stale');
    expect(checkSignature(signed('a=b', now + 301))).toBe('timestamp-future');
    expect(checkSignature(signed('a=b', now + 86_400 * 365))).toBe('timestamp-future');
  });

  it('refuses missing, repeated, malformed and wrong signatures', () => {
    const good = signed('a=b');
    expect(checkSignature({ ...good, signature: undefined })).toBe('signature-missing');
    expect(checkSignature({ ...good, timestamp: [good.timestamp, good.timestamp] })).toBe(
      'signature-missing',
    );
    expect(checkSignature({ ...good, timestamp: '1e9' })).toBe('timestamp-invalid');
    expect(checkSignature({ ...good, signature: 'v0=abc' })).toBe('signature-invalid');
    expect(checkSignature({ ...good, signature: `v1=${good.signature.slice(3)}` })).toBe(
      'signature-invalid',
    );
    expect(checkSignature({ ...good, rawBody: Buffer.from('a=c') })).toBe('signature-invalid');
    expect(checkSignature({ ...good, secret: 'ffffffffffffffffffffffffffffffff' })).toBe(
      'signature-invalid',
    );
  });

  it('names a request by its signature and timestamp', () => {
    expect(requestId('1', 'v0=a')).toBe(requestId('1', 'v0=a'));
    expect(requestId('1', 'v0=a')).not.toBe(requestId('2', 'v0=a'));
    expect(requestId('1', 'v0=a')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('parseSlackBody', () => {
  const parse = (body: string, type: string | undefined = FORM) =>
    parseSlackBody(Buffer.from(body), type);
  const payload = (value: unknown) =>
    new URLSearchParams({ payload: JSON.stringify(value) }).toString();
  const user = { id: 'U0A', team_id: 'T0A' };

  it.each([
    ['payload=null', FORM, 'body-not-object'],
    ['payload=%5B%5D', FORM, 'body-not-object'],
    ['payload=%7B', FORM, 'body-malformed'],
    ['null', 'application/json', 'body-not-object'],
    ['"x"', 'application/json', 'body-not-object'],
    ['{', 'application/json', 'body-malformed'],
    ['', 'application/json', 'body-malformed'],
    ['{}', 'application/json', 'body-unknown'],
    ['a=1', FORM, 'body-unknown'],
    ['command=%2Fa&command=%2Fb', FORM, 'body-duplicate-field'],
    ['{"event":null}', 'application/json', 'body-unknown'],
    // Bolt reads a form only for exactly this content type; anything else is JSON to it.
    ['command=%2Fa', `${FORM}; charset=utf-8`, 'body-malformed'],
  ])('refuses %j (%s) as %s', (body, type, reason) => {
    expect(parse(body, type)).toBe(reason);
  });

  it('refuses interactions Bolt would read without looking', () => {
    expect(parse(payload({ type: 'block_actions', user }))).toBe('body-unknown');
    expect(parse(payload({ type: 'view_submission', user }))).toBe('body-unknown');
    expect(parse(payload({ type: 'block_actions', actions: [] }))).toBe('body-unknown');
    expect(parse(payload({ type: 'something_new', user }))).toBe('body-unknown');
  });

  it('types commands, interactions, events and the URL check as Bolt does', () => {
    expect(parse('command=%2Fproxy-migrate&team_id=T0A&user_id=U0A&channel_id=C0A')).toMatchObject({
      kind: 'command',
    });
    expect(parse(payload({ type: 'block_actions', actions: [], user }))).toMatchObject({
      kind: 'interaction',
    });
    expect(parse('{"type":"url_verification","challenge":"c"}', 'application/json')).toMatchObject({
      kind: 'url-verification',
    });
    expect(parse('{"type":"event_callback","event":{}}', 'application/json')).toMatchObject({
      kind: 'event',
    });
  });

  // Found by the bad-input suite: Bolt read `channel.id` of a click with `channel: null` and
  // answered 500 with an error log.
  it('refuses an interaction whose channel is not an object', () => {
    const click = { type: 'block_actions', actions: [], user };
    expect(parse(payload({ ...click, channel: null }))).toBe('body-unknown');
    expect(parse(payload({ ...click, channel: 'C0A' }))).toBe('body-unknown');
    expect(parse(payload({ ...click, channel: { id: 'C0A' } }))).toMatchObject({
      kind: 'interaction',
    });
  });

  // Found by the bad-input suite: a command without channel_id read as a terminal run, which
  // channels do not restrict, so a channel-bound cluster could be driven from anywhere.
  it('refuses a command that names no user or no channel', () => {
    const base = { command: '/proxy-migrate', team_id: 'T0A', user_id: 'U0A', channel_id: 'C0A' };
    const form = (over: Record<string, string | undefined>) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...base, ...over }))
        if (v !== undefined) params.set(k, v);
      return params.toString();
    };
    expect(parse(form({}))).toMatchObject({ kind: 'command' });
    expect(parse(form({ channel_id: undefined }))).toBe('body-unknown');
    expect(parse(form({ channel_id: '' }))).toBe('body-unknown');
    expect(parse(form({ user_id: undefined }))).toBe('body-unknown');
    expect(parse(JSON.stringify({ ...base, user_id: 7 }), 'application/json')).toBe('body-unknown');
  });

  it('recognises the SSL check only as a form', () => {
    expect(isSslCheck(Buffer.from('ssl_check=1&token=x'), FORM)).toBe(true);
    expect(isSslCheck(Buffer.from('{"ssl_check":"1"}'), 'application/json')).toBe(false);
    expect(isSslCheck(Buffer.from('ssl_check=0'), FORM)).toBe(false);
  });
});

describe('checkOrigin', () => {
  const installation = { teamId: 'T0A', enterpriseId: 'E0A', appId: 'A0A' };
  const command = (fields: Record<string, string>): SlackBody => ({
    kind: 'command',
    body: { command: '/proxy-migrate', team_id: 'T0A', api_app_id: 'A0A', ...fields },
  });
  const click = (over: Record<string, unknown>): SlackBody => ({
    kind: 'interaction',
    body: {
      type: 'block_actions',
      team: { id: 'T0A' },
      user: { id: 'U0A', team_id: 'T0A' },
      api_app_id: 'A0A',
      ...over,
    },
  });

  it('accepts the installation’s own requests', () => {
    expect(checkOrigin(command({}), installation)).toBeUndefined();
    expect(checkOrigin(command({ enterprise_id: 'E0A' }), installation)).toBeUndefined();
    expect(checkOrigin(click({ enterprise: { id: 'E0A' } }), installation)).toBeUndefined();
  });

  it('refuses another team, org or app, and a request naming no team', () => {
    expect(checkOrigin(command({ team_id: 'T0B' }), installation)).toBe('team-other');
    expect(checkOrigin(command({ team_id: '' }), installation)).toBe('team-missing');
    expect(checkOrigin(command({ enterprise_id: 'E0B' }), installation)).toBe('enterprise-other');
    expect(checkOrigin(command({ api_app_id: 'A0B' }), installation)).toBe('app-other');
    expect(checkOrigin(command({ api_app_id: '' }), installation)).toBe('app-missing');
    expect(checkOrigin(click({ team: null }), installation)).toBe('team-missing');
    expect(checkOrigin(click({ team: { id: 'T0A', enterprise_id: 'E0B' } }), installation)).toBe(
      'enterprise-other',
    );
  });

  it('reads the team of an interaction from the request, not the clicking user (Slack Connect)', () => {
    const external = click({ user: { id: 'U0X', team_id: 'T0EXTERNAL' } });
    expect(originOf(external).teamId).toBe('T0A');
    expect(checkOrigin(external, installation)).toBeUndefined();
    // A user of our team does not make another team's request ours.
    expect(checkOrigin(click({ team: { id: 'T0B' } }), installation)).toBe('team-other');
  });

  it('takes a modal’s installing team from the view, and checks the view’s app', () => {
    const view = (over: Record<string, unknown>): SlackBody => ({
      kind: 'interaction',
      body: {
        type: 'view_submission',
        team: { id: 'T0CONNECT' },
        user: { id: 'U0A' },
        api_app_id: 'A0A',
        view: { app_installed_team_id: 'T0A', app_id: 'A0A', ...over },
      },
    });
    expect(checkOrigin(view({}), installation)).toBeUndefined();
    expect(checkOrigin(view({ app_id: 'A0B' }), installation)).toBe('app-other');
    expect(checkOrigin(view({ app_installed_team_id: 'T0B' }), installation)).toBe('team-other');
  });

  it('checks the app only when SLACK_APP_ID is set, and the org only when a request names one', () => {
    const plain = { teamId: 'T0A' };
    expect(checkOrigin(command({ api_app_id: 'A0ANY' }), plain)).toBeUndefined();
    expect(checkOrigin(command({ enterprise_id: 'E0ANY' }), plain)).toBe('enterprise-other');
  });

  it('lets Slack’s URL check through: it names no team', () => {
    expect(
      checkOrigin({ kind: 'url-verification', body: { type: 'url_verification' } }, installation),
    ).toBeUndefined();
  });
});
