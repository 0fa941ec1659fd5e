// The HTTP edge attacked as an outsider would: signed and unsigned requests over real HTTP to the
// running bot (Bolt's HTTPReceiver behind the edge guard), the fake Slack, Redis and the twin.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMetrics } from '../../../src/adapters/metrics.js';
import { createHttpServer, closeServer, listen } from '../../../src/adapters/http/server.js';
import { MemorySeenRequests } from '../../../src/adapters/http/seen-requests.js';
import { guardSlackListener } from '../../../src/adapters/http/slack-guard.js';
import { KubeClusterDirectory } from '../../../src/adapters/kubernetes/directory.js';
import { MemoryRunStore } from '../../../src/adapters/run-store/memory.js';
import { createBoltApp, createWebClient } from '../../../src/adapters/slack/bolt-app.js';
import { SlackChat } from '../../../src/adapters/slack/chat.js';
import { systemClock } from '../../../src/ports/clock.js';
import {
  UNHANDLED_FORM,
  UNHANDLED_REPLY,
} from '../../../src/adapters/slack/unhandled-interactions.js';
import { registerCommands } from '../../../src/commands/register.js';
import type { Verb } from '../../../src/commands/types.js';
import { AppError } from '../../../src/errors.js';
import { ACTION, VIEW } from '../../../src/interactions/ids.js';
import { REASON_BLOCK, REASON_INPUT } from '../../../src/interactions/reject.js';
import { checkBlocks } from '../../fakes/slack-limits.js';
import {
  blockActionsBody,
  buttonClickPayload,
  nowSeconds,
  postSigned,
  signSlackRequest,
  slashCommandBody,
  viewSubmissionPayload,
  type SlashCommandOptions,
} from '../../fakes/slack-signing.js';
import { SIGNING_SECRET, startHarness, type BotHarness } from '../../helpers/bot-harness.js';

const FORM = 'application/x-www-form-urlencoded';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BROKEN_ESCAPE = /&(?!amp;|lt;|gt;)/;

interface Ack {
  response_type?: string;
  text?: string;
  blocks?: unknown[];
  response_action?: string;
  view?: unknown;
  options?: unknown[];
}

async function ackOf(response: Response): Promise<Ack> {
  const text = await response.text();
  return text === '' ? {} : (JSON.parse(text) as Ack);
}

/** Every mrkdwn/plain text in a reply, to check escapes and surrogates. */
function textsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'text' && typeof inner === 'string' ? [inner] : textsOf(inner),
  );
}

interface RawResult {
  status?: number;
  headers?: IncomingHttpHeaders;
  error?: string;
  /** When the server closed the connection, in ms from the start. */
  closedAfterMs: number;
}

/** A request written by hand (headers first, then as much body as `write` sends). */
function rawRequest(
  port: number,
  headers: Record<string, string | number>,
  write: (send: (chunk: string | Buffer) => void) => void,
  method = 'POST',
): Promise<RawResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const result: RawResult = { closedAfterMs: -1 };
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/slack/events',
      method,
      headers,
      agent: false,
    });
    req.on('response', (res) => {
      if (res.statusCode !== undefined) result.status = res.statusCode;
      result.headers = res.headers;
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      result.error = error.code ?? error.message;
    });
    req.on('close', () => {
      result.closedAfterMs = Date.now() - started;
      resolve(result);
    });
    req.flushHeaders();
    write((chunk) => req.write(chunk));
    setTimeout(() => req.destroy(), 8_000).unref();
  });
}

describe('the HTTP edge', () => {
  let h: BotHarness;
  let url: string;
  let port: number;
  let sent = 0;

  /** A signed slash command with overrides, e.g. another team. */
  function commandBody(
    text: string,
    extra: Partial<SlashCommandOptions> = {},
    id?: string,
  ): string {
    sent += 1;
    return slashCommandBody({
      text,
      response_url: h.fake.responseUrl(id ?? `edge${sent}`),
      ...extra,
    });
  }

  function click(actionId: string, over: Record<string, unknown> = {}, id?: string): string {
    sent += 1;
    const payload = buttonClickPayload({
      actionId,
      messageTs: '1700000000.000100',
      responseUrl: h.fake.responseUrl(id ?? `click${sent}`),
      value: 'co-1',
    });
    return blockActionsBody({ ...payload, ...over });
  }

  const signed = (body: string, options: { timestamp?: number; contentType?: string } = {}) =>
    postSigned(url, body, { secret: SIGNING_SECRET, ...options });

  const refusals = (reason: string): number =>
    h.log.lines().filter((l) => l.msg === 'slack request refused' && l.reason === reason).length;

  beforeAll(async () => {
    h = await startHarness({
      env: { SLACK_APP_ID: 'A0TEST' },
      slack: { enterpriseId: 'E0GRID' },
      extraClusters: `  - name: cluster-b
    kubeconfig: ./kubeconfig.yaml
    context: kubeadm-ipvs
    channels: [C0ELSEWHERE]
    approvers: { users: [U0CAROL] }
`,
    });
    url = `${h.baseUrl}/slack/events`;
    port = h.bot.port;
  });
  afterAll(async () => {
    await h.stop();
  });

  describe('only this installation', () => {
    it.each([
      ['another team', { team_id: 'T0OTHER' }, 'team-other'],
      ['another Enterprise org', { enterprise_id: 'E0OTHER' }, 'enterprise-other'],
      ['another app', { api_app_id: 'A0OTHER' }, 'app-other'],
    ] as const)('refuses a command from %s and runs nothing', async (_, extra, reason) => {
      const jobsBefore = await h.jobCount();
      const before = refusals(reason);
      const response = await signed(commandBody('preflight cluster-a', extra, `foreign-${reason}`));
      expect(response.status).toBe(200);
      const ack = await ackOf(response);
      expect(ack.response_type).toBe('ephemeral');
      expect(ack.text).toContain('not installed for this workspace');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await h.jobCount()).toBe(jobsBefore);
      expect(h.fake.responses.some((r) => r.id === `foreign-${reason}`)).toBe(false);
      expect(refusals(reason)).toBe(before + 1);
    });

    it('serves a command from its own team and org', async () => {
      const ack = await ackOf(await signed(commandBody('help', { enterprise_id: 'E0GRID' })));
      expect(ack.text).toMatch(/^proxy-migrate: /);
    });

    it.each([
      ['another team', { team: { id: 'T0OTHER', domain: 'evil' } }, 'team-other'],
      ['no team', { team: null }, 'team-missing'],
      ['another Enterprise org', { enterprise: { id: 'E0OTHER' } }, 'enterprise-other'],
      ['another app', { api_app_id: 'A0OTHER' }, 'app-other'],
    ] as const)('refuses a button click for %s with 403', async (_, over, reason) => {
      const before = refusals(reason);
      const response = await signed(click('old.button', over, `click-${reason}`));
      expect(response.status).toBe(403);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(h.fake.responses.some((r) => r.id === `click-${reason}`)).toBe(false);
      expect(refusals(reason)).toBe(before + 1);
    });

    it('lets a Slack Connect user through the edge: the request is the installation’s', async () => {
      // The clicking user belongs to another team; the request's team is still ours. Whether that
      // user may approve is the approval check's business, not the edge's.
      const payload = buttonClickPayload({
        actionId: 'old.button',
        messageTs: '1700000000.000100',
        responseUrl: h.fake.responseUrl('connect'),
      });
      const body = blockActionsBody({
        ...payload,
        user: { id: 'U0EXT', username: 'ext', name: 'ext', team_id: 'T0EXTERNAL' },
      });
      expect((await signed(body)).status).toBe(200);
      await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'connect'));
    });
  });

  describe('replay and time', () => {
    it('runs the same signed bytes once, however often and however fast they come', async () => {
      const body = commandBody('preflight cluster-a', {}, 'replayed');
      const timestamp = nowSeconds();
      const statuses = await Promise.all(
        Array.from({ length: 10 }, () => signed(body, { timestamp }).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(9);
      const queued = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'replayed'));
      const runId = /run (pf-[a-z0-9-]+)/.exec(JSON.stringify(queued.body))?.[1];
      expect(runId).toBeDefined();
      // Later, and as a Slack retry: still not run again.
      expect((await signed(body, { timestamp })).status).toBe(409);
      const retry = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': FORM,
          ...signSlackRequest(SIGNING_SECRET, body, timestamp),
          'x-slack-retry-num': '1',
          'x-slack-retry-reason': 'http_timeout',
        },
        body,
      });
      expect(retry.status).toBe(200);
      await h.bot.runs.waitFor(runId!, 20_000);
      expect(h.fake.responses.filter((r) => r.id === 'replayed')).toHaveLength(1);
      expect(refusals('replayed')).toBeGreaterThanOrEqual(10);
    });

    it('refuses timestamps more than five minutes in the future, and allows small skew', async () => {
      const jobsBefore = await h.jobCount();
      const future = await signed(commandBody('preflight cluster-a', {}, 'future'), {
        timestamp: nowSeconds() + 10 * 60,
      });
      expect(future.status).toBe(401);
      const farFuture = await signed(commandBody('help'), { timestamp: nowSeconds() + 86_400 });
      expect(farFuture.status).toBe(401);
      const skewed = await signed(commandBody('help'), { timestamp: nowSeconds() + 60 });
      expect(skewed.status).toBe(200);
      expect(await h.jobCount()).toBe(jobsBefore);
      expect(refusals('timestamp-future')).toBe(2);
    });
  });

  describe('no input crashes the process', () => {
    const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
    const ours = {
      team: { id: 'T0TEST' },
      user: { id: 'U0ALICE', team_id: 'T0TEST' },
      api_app_id: 'A0TEST',
    };
    const cases: [string, string, string | undefined, number][] = [
      ['payload=null', 'payload=null', FORM, 400],
      ['payload=[]', form({ payload: '[]' }), FORM, 400],
      ['payload=42', 'payload=42', FORM, 400],
      ['payload of garbage', form({ payload: '{"type":' }), FORM, 400],
      ['JSON null', 'null', 'application/json', 400],
      ['JSON array', '[1,2]', 'application/json', 400],
      ['JSON string', '"hello"', 'application/json', 400],
      ['garbage JSON', '{"type": nope', 'application/json', 400],
      ['an empty body', '', FORM, 400],
      ['an empty JSON object', '{}', 'application/json', 400],
      ['a form of nothing Slack sends', form({ hello: 'world' }), FORM, 400],
      ['a field given twice', 'command=%2Fproxy-migrate&command=%2Fx&team_id=T0TEST', FORM, 400],
      ['a null event', '{"event":null,"team_id":"T0TEST"}', 'application/json', 400],
      [
        'block_actions without actions',
        form({ payload: JSON.stringify({ type: 'block_actions', actions: null, ...ours }) }),
        FORM,
        400,
      ],
      [
        'a view_submission without a view',
        form({ payload: JSON.stringify({ type: 'view_submission', ...ours }) }),
        FORM,
        400,
      ],
      [
        'an action without a user',
        form({
          payload: JSON.stringify({ type: 'block_actions', actions: [{}], ...ours, user: null }),
        }),
        FORM,
        400,
      ],
      [
        'an action without an id',
        form({ payload: JSON.stringify({ type: 'block_actions', actions: [{}], ...ours }) }),
        FORM,
        200,
      ],
      [
        'an event Bolt acknowledges itself',
        JSON.stringify({
          type: 'event_callback',
          team_id: 'T0TEST',
          api_app_id: 'A0TEST',
          event: { type: 'app_mention', text: 'hi' },
        }),
        'application/json',
        200,
      ],
    ];

    it.each(cases)('answers %s promptly, without a crash', async (_, body, contentType, status) => {
      const started = Date.now();
      const response = await signed(body, contentType === undefined ? {} : { contentType });
      expect(response.status).toBe(status);
      expect(Date.now() - started).toBeLessThan(2_500);
      // Still serving.
      expect((await ackOf(await signed(commandBody('help')))).text).toMatch(/^proxy-migrate: /);
    });

    it('acks a command without text with the usage, and logs no stack', async () => {
      const fields = new URLSearchParams(commandBody('help'));
      fields.delete('text');
      const started = Date.now();
      const response = await signed(fields.toString());
      expect(Date.now() - started).toBeLessThan(2_500);
      const ack = await ackOf(response);
      expect(ack.response_type).toBe('ephemeral');
      expect(JSON.stringify(ack.blocks)).toContain('/proxy-migrate preflight &lt;cluster&gt;');
    });

    it('answers Slack’s unsigned SSL check and nothing else without a signature', async () => {
      const check = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': FORM },
        body: 'ssl_check=1&token=x',
      });
      expect(check.status).toBe(200);
      const unsigned = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': FORM },
        body: commandBody('preflight cluster-a'),
      });
      expect(unsigned.status).toBe(401);
    });

    it('logged no error with a stack and no unhandled failure for any of it', () => {
      const errors = h.log.lines().filter((l) => l.level === 'error' || l.level === 'fatal');
      expect(errors).toEqual([]);
      expect(h.log.text()).not.toMatch(/\n\s+at .*\.(ts|js):\d+/);
    });
  });

  describe('every interaction is acked within 3 s', () => {
    it('acks an unknown button at once and tells the clicker, ephemerally', async () => {
      const started = Date.now();
      const response = await signed(click('preflight.v0.rerun', {}, 'stale-button'));
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_000);
      const reply = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'stale-button'));
      expect(reply.body).toMatchObject({
        response_type: 'ephemeral',
        replace_original: false,
        text: UNHANDLED_REPLY,
      });
    });

    it('acks an unknown modal submission by saying the form is no longer handled', async () => {
      const payload = {
        type: 'view_submission',
        team: { id: 'T0TEST', domain: 'fake-team' },
        user: { id: 'U0ALICE', team_id: 'T0TEST' },
        api_app_id: 'A0TEST',
        trigger_id: '1.2.3',
        view: {
          id: 'V0OLD',
          type: 'modal',
          callback_id: 'old.modal',
          app_id: 'A0TEST',
          state: { values: {} },
        },
      };
      const response = await signed(blockActionsBody(payload));
      expect(response.status).toBe(200);
      const ack = await ackOf(response);
      expect(ack.response_action).toBe('update');
      expect(JSON.stringify(ack.view)).toContain(UNHANDLED_FORM);
    });

    // Found by the bad-input suite: a reject modal naming no run (or no user) was acked empty
    // and dropped, so whoever submitted it was never told anything.
    it.each([
      ['metadata naming no run', '{"runId":"x","channelId":"C0OPS","messageTs":"1.2"}', 'U0BOB'],
      [
        'metadata naming a channel that is not one',
        JSON.stringify({ runId: 'co-abcdef', channelId: '<!here>', messageTs: '1.2' }),
        'U0BOB',
      ],
      ['no metadata', '', 'U0BOB'],
    ])('answers a reject modal with %s in the modal itself', async (_, metadata) => {
      const payload = viewSubmissionPayload({
        view: { callback_id: VIEW.rejectReason, private_metadata: metadata },
        viewId: 'V0REJ',
        values: { [REASON_BLOCK]: { [REASON_INPUT]: 'because' } },
        userId: 'U0BOB',
      });
      const ephemeralsBefore = h.fake.ephemerals.length;
      const response = await signed(blockActionsBody(payload));
      expect(response.status).toBe(200);
      const ack = await ackOf(response);
      expect(ack.response_action).toBe('errors');
      expect(JSON.stringify(ack)).toContain('This form cannot be used: it names no run');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(h.fake.ephemerals.length).toBe(ephemeralsBefore);
    });

    it.each([
      ['a global shortcut', { type: 'shortcut', callback_id: 'old.shortcut', trigger_id: '1.2.3' }],
      ['a closed modal', { type: 'view_closed', view: { id: 'V1', callback_id: 'old.modal' } }],
      ['an options request', { type: 'block_suggestion', action_id: 'old.select', value: 'a' }],
    ])('acks %s it does not know at once', async (_, payload) => {
      const started = Date.now();
      const body = blockActionsBody({
        ...payload,
        team: { id: 'T0TEST' },
        user: { id: 'U0ALICE', team_id: 'T0TEST' },
        api_app_id: 'A0TEST',
      });
      const response = await signed(body);
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('leaves known ids to their own handlers', async () => {
      await signed(click(ACTION.approve, {}, 'known-button'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const unhandled = h.fake.responses.filter(
        (r) => r.id === 'known-button' && JSON.stringify(r.body).includes(UNHANDLED_REPLY),
      );
      expect(unhandled).toEqual([]);
    });
  });

  describe('requests the way an outsider sends them', () => {
    it('answers 405 to every method but POST, and logs method, path, status and size only', async () => {
      const secrets = {
        authorization: 'Bearer auth-secret-4711',
        cookie: 'session=cookie-secret-4711',
        'x-slack-signature': `v0=${'ab'.repeat(32)}`,
      };
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) {
        const response = await fetch(`${url}?token=query-secret-4711`, {
          method,
          headers: secrets,
        });
        expect(response.status, method).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
      const lines = h.log.lines().filter((l) => l.msg === 'http request' && l.status === 405);
      expect(lines).toHaveLength(6);
      const allowed = [
        'level',
        'time',
        'service',
        'component',
        'method',
        'path',
        'status',
        'bytesIn',
        'bytesOut',
        'ms',
        'msg',
      ];
      for (const line of lines) {
        expect(Object.keys(line).filter((k) => !allowed.includes(k))).toEqual([]);
        expect(line.path).toBe('/slack/events');
      }
      const text = h.log.text();
      for (const secret of [
        'auth-secret-4711',
        'cookie-secret-4711',
        'query-secret-4711',
        'ab'.repeat(32),
      ]) {
        expect(text).not.toContain(secret);
      }
    });

    it('never logs a request’s signature or body', async () => {
      const body = commandBody('help', { user_name: 'body-marker-4711' });
      const headers = signSlackRequest(SIGNING_SECRET, body);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': FORM, ...headers },
        body,
      });
      expect(response.status).toBe(200);
      await response.text();
      const text = h.log.text();
      expect(text).not.toContain(headers['x-slack-signature'].slice(3));
      expect(text).not.toContain('body-marker-4711');
    });

    it('refuses a declared 4 MB body from its headers, before reading it', async () => {
      const before = refusals('body-too-large');
      const result = await rawRequest(
        port,
        { 'content-type': FORM, 'content-length': 4 * 1024 * 1024 },
        () => undefined,
      );
      expect(result.status).toBe(413);
      expect(result.closedAfterMs).toBeLessThan(1_000);
      expect(refusals('body-too-large')).toBe(before + 1);
    });

    it('refuses a streamed body past the limit while it streams', async () => {
      const before = refusals('body-too-large');
      const result = await rawRequest(
        port,
        { 'content-type': FORM, 'transfer-encoding': 'chunked' },
        (send) => send(Buffer.alloc(80 * 1024, 'a')),
      );
      // The server answers 413 and closes; the client may see the close first.
      if (result.status === undefined) expect(result.error).toMatch(/ECONNRESET|EPIPE/);
      else expect(result.status).toBe(413);
      expect(refusals('body-too-large')).toBe(before + 1);
    });

    it('refuses oversized headers with 431', async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': FORM, 'x-filler': 'x'.repeat(20 * 1024) },
        body: 'a=b',
      });
      expect(response.status).toBe(431);
    });

    it('closes a connection whose body trickles in, within Slack’s budget', async () => {
      const result = await rawRequest(
        port,
        { 'content-type': FORM, 'content-length': 1000 },
        (send) => send('token=slow'),
      );
      expect(result.status === undefined || result.status === 408).toBe(true);
      expect(result.closedAfterMs).toBeGreaterThan(2_500);
      expect(result.closedAfterMs).toBeLessThan(5_000);
    });

    it('closes a connection whose headers never end, within Slack’s budget', async () => {
      const started = Date.now();
      const closedAfter = await new Promise<number>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write('POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
        });
        socket.on('data', () => undefined);
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(Date.now() - started));
        setTimeout(() => socket.destroy(), 10_000).unref();
      });
      expect(closedAfter).toBeGreaterThan(2_500);
      expect(closedAfter).toBeLessThan(5_000);
    });
  });

  describe('clusters and replies', () => {
    it('shows a channel only the clusters it may drive, never other approvers', async () => {
      const ops = JSON.stringify(await ackOf(await signed(commandBody('clusters'))));
      expect(ops).toContain('*cluster-a*');
      expect(ops).not.toMatch(/cluster-b|C0ELSEWHERE|U0CAROL/);
      const elsewhere = JSON.stringify(
        await ackOf(await signed(commandBody('clusters', { channel_id: 'C0ELSEWHERE' }))),
      );
      expect(elsewhere).toContain('*cluster-b*');
      expect(elsewhere).not.toMatch(/cluster-a|C0OPS|U0BOB/);
      const random = JSON.stringify(
        await ackOf(await signed(commandBody('clusters', { channel_id: 'C0RANDOM' }))),
      );
      expect(random).toContain('No cluster can be driven from this channel');
      expect(random).not.toMatch(/cluster-a|cluster-b|U0BOB|U0CAROL/);
    });

    it.each([
      ['an unknown verb of 4,000 characters', `${'😀&'.repeat(1333)}x`],
      ['an unknown verb with a 4,000-character argument', `frobnicate ${'<&😀>'.repeat(800)}`],
      ['a cluster name of 4,000 characters', `preflight ${'&😀'.repeat(1333)}x`],
      ['4,000 characters of extra arguments', `preflight cluster-a ${'a&<😀 '.repeat(800)}`],
    ])('fits its reply to %s within Slack’s limits', async (_, text) => {
      const response = await signed(commandBody(text));
      expect(response.status).toBe(200);
      const ack = await ackOf(response);
      expect(ack.response_type).toBe('ephemeral');
      expect(checkBlocks(ack.blocks)).toBeUndefined();
      expect(ack.text!.length).toBeLessThanOrEqual(3000);
      for (const shown of [ack.text!, ...textsOf(ack.blocks)]) {
        expect(shown).not.toMatch(LONE_SURROGATE);
        expect(shown).not.toMatch(BROKEN_ESCAPE);
      }
      expect(JSON.stringify(ack.blocks)).toContain('error code');
    });
  });

  it('answers validation that fails after the ack with a usage error, not “Something went wrong”', async () => {
    // A bot of its own verbs, on the real Bolt receiver over HTTP, against the same fake Slack.
    const broken: Verb[] = [
      {
        name: 'schema',
        usage: '/proxy-migrate schema <node>',
        summary: 'acks, then a schema refuses',
        run: async (ctx) => {
          await ctx.ack();
          z.object({ node: z.string().min(1) }).parse({ node: ctx.args[0] ?? '' });
        },
      },
      {
        name: 'late',
        usage: '/proxy-migrate late <node>',
        summary: 'acks, then finds the argument wrong',
        run: async (ctx) => {
          await ctx.ack();
          throw new AppError('USAGE', 'No such node.', { remedy: 'Name a node of the cluster.' });
        },
      },
    ];
    const slackConfig = {
      botToken: h.fake.botToken,
      signingSecret: SIGNING_SECRET,
      apiUrl: h.fake.apiUrl,
    };
    const bolt = createBoltApp(
      slackConfig,
      { botId: 'B0BOT', botUserId: 'U0BOT', teamId: 'T0TEST', team: 'Fake Team' },
      h.log.logger,
      { retryConfig: { retries: 0 } },
    );
    registerCommands(bolt.app, {
      verbs: broken,
      services: {
        config: { clusters: [] },
        runs: {
          start: () => Promise.resolve('x'),
          startOnce: () => Promise.resolve({ runId: 'x', started: true }),
        },
        directory: new KubeClusterDirectory(h.config, h.log.logger),
        chat: new SlackChat(createWebClient(slackConfig, h.log.logger)),
        runStore: new MemoryRunStore(),
        clock: systemClock,
      },
      logger: h.log.logger,
      metrics: createMetrics(),
    });
    // Behind the edge guard, as the bot mounts it: Bolt's listener runs nothing on its own.
    const unguarded = createHttpServer({
      slackListener: bolt.listener!,
      readiness: () => Promise.resolve({ ready: true, checks: {} }),
      metrics: () => Promise.resolve({ contentType: 'text/plain', body: '' }),
      logger: h.log.logger,
    });
    const server = createHttpServer({
      slackListener: guardSlackListener(bolt.listener!, {
        signingSecret: SIGNING_SECRET,
        installation: { teamId: 'T0TEST' },
        seen: new MemorySeenRequests(),
        logger: h.log.logger,
      }),
      readiness: () => Promise.resolve({ ready: true, checks: {} }),
      metrics: () => Promise.resolve({ contentType: 'text/plain', body: '' }),
      logger: h.log.logger,
    });
    const own = await listen(server, 0, '127.0.0.1');
    const bare = await listen(unguarded, 0, '127.0.0.1');
    try {
      // Bolt does not check signatures itself (the guard does, once): without the guard even a
      // well-signed command is refused, and nothing runs or answers.
      const refused = await postSigned(
        `http://127.0.0.1:${bare}/slack/events`,
        commandBody('late x', {}, 'unguarded-late'),
        { secret: SIGNING_SECRET },
      );
      expect(refused.status).toBe(401);
      for (const [text, id, usage] of [
        ['schema', 'after-ack-schema', 'Usage: /proxy-migrate schema &lt;node&gt;'],
        ['late x', 'after-ack-late', 'Usage: /proxy-migrate late &lt;node&gt;'],
      ] as const) {
        const response = await postSigned(
          `http://127.0.0.1:${own}/slack/events`,
          commandBody(text, {}, id),
          { secret: SIGNING_SECRET },
        );
        expect(response.status).toBe(200);
        const reply = await h.fake.waitFor((f) => f.responses.find((r) => r.id === id));
        const shown = JSON.stringify(reply.body);
        expect(shown).toContain('error code `USAGE`');
        expect(shown).toContain(usage);
        expect(shown).not.toContain('Something went wrong');
      }
    } finally {
      await closeServer(server);
      await closeServer(unguarded);
    }
    expect(h.fake.responses.some((r) => r.id === 'unguarded-late')).toBe(false);
  });
});
