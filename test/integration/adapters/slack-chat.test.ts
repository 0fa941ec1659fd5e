// SlackChat against the fake Slack over HTTP with the real WebClient: pacing per channel,
// coalesced edits, the deadline on a long 429, a closed channel, an expired response_url.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMetrics, type Metrics } from '../../../src/adapters/metrics.js';
import { SLACK_CHANNEL_PACE } from '../../../src/adapters/slack/channel-pacer.js';
import { SlackChat } from '../../../src/adapters/slack/chat.js';
import { AppError } from '../../../src/errors.js';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack.js';
import { fakeSlackClient } from '../../fakes/slack-client.js';
import { captureLog } from '../../helpers/log-capture.js';

/** The most calls to `method` in `channel` that fell within any one second. */
function busiestSecond(fake: FakeSlack, method: string, channel: string): number {
  const times = fake.calls
    .filter((c) => c.method === method && c.args['channel'] === channel)
    .map((c) => c.at)
    .sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < times.length; i += 1) {
    const start = times[i] ?? 0;
    most = Math.max(most, times.filter((t) => t >= start && t < start + 1_000).length);
  }
  return most;
}

async function counter(metrics: Metrics, name: string, labels: Record<string, string>) {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as { labels: Record<string, unknown>; value: number }[];
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))
    .reduce((sum, v) => sum + v.value, 0);
}

describe('SlackChat', () => {
  let fake: FakeSlack;
  let metrics: Metrics;
  let chat: SlackChat;
  const log = captureLog();

  beforeAll(async () => {
    fake = await startFakeSlack();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    metrics = createMetrics();
    chat = new SlackChat(fakeSlackClient(fake, { rejectRateLimitedCalls: true }), {
      logger: log.logger,
      metrics,
    });
  });

  it('paces posts to one channel at about one a second after a short burst, other channels unhindered', async () => {
    const posts = Array.from({ length: 6 }, (_, i) => chat.post('C0BUSY', { text: `post ${i}` }));
    await chat.post('C0QUIET', { text: 'elsewhere' });
    await Promise.all(posts);
    const limit = SLACK_CHANNEL_PACE.burst + SLACK_CHANNEL_PACE.perSecond;
    expect(busiestSecond(fake, 'chat.postMessage', 'C0BUSY')).toBeLessThanOrEqual(limit);
    // Order kept within the channel.
    expect(fake.messages.filter((m) => m.channel === 'C0BUSY').map((m) => m.text)).toEqual(
      Array.from({ length: 6 }, (_, i) => `post ${i}`),
    );
    // The quiet channel did not queue behind the busy one: it went before the burst ran out.
    const at = (channel: string) =>
      fake.calls.filter((c) => c.args['channel'] === channel).map((c) => c.at);
    const afterBurst = at('C0BUSY')[SLACK_CHANNEL_PACE.burst] ?? 0;
    expect(at('C0QUIET')[0]).toBeLessThan(afterBurst);
  });

  it('coalesces queued edits of one message: only the newest is sent, every caller is answered', async () => {
    const { ts } = await chat.post('C0EDIT', { text: 'v0' });
    // Spend the lane's burst so the edits queue.
    await Promise.all([chat.post('C0EDIT', { text: 'a' }), chat.post('C0EDIT', { text: 'b' })]);
    const edits = Array.from({ length: 8 }, (_, i) =>
      chat.update('C0EDIT', ts, { text: `v${i + 1}` }),
    );
    await Promise.all(edits);
    expect(fake.callsTo('chat.update').length).toBeLessThanOrEqual(2);
    expect(fake.findMessage('C0EDIT', ts)?.text).toBe('v8');
  });

  it('gives up on a 429 that outlasts the deadline, saying how long Slack refused', async () => {
    const short = new SlackChat(fakeSlackClient(fake, { rejectRateLimitedCalls: true }), {
      metrics,
      deadlineMs: 2_500,
    });
    fake.rateLimitFor('chat.postMessage', 10_000, 1);
    const error = await short.post('C0LIMIT', { text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'SLACK_RATE_LIMITED', retryable: true });
    expect((error as AppError).message).toMatch(
      /^Slack rate-limited chat\.postMessage for \d+ s\.$/,
    );
    // Retry-After (1 s) honoured: two or three tries in 2.5 s, not a loop.
    const tries = fake.callsTo('chat.postMessage').length;
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(4);
    expect(fake.messages).toHaveLength(0);
  });

  it('a closed channel: one call, no retry, one log line and a metric naming it', async () => {
    fake.failChannel('C0CLOSED', 'channel_not_found');
    for (let i = 0; i < 3; i += 1) {
      const error = await chat.post('C0CLOSED', { text: 'x' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'SLACK_NOT_IN_CHANNEL', retryable: false });
    }
    expect(fake.callsTo('chat.postMessage')).toHaveLength(3);
    const lines = log
      .lines()
      .filter(
        (l) => l['channel'] === 'C0CLOSED' && String(l.msg).startsWith('the bot cannot post'),
      );
    expect(lines).toHaveLength(1);
    expect(
      await counter(metrics, 'proxy_migrate_slack_channel_unavailable_total', {
        channel: 'C0CLOSED',
        error: 'channel_not_found',
      }),
    ).toBe(3);
    expect(
      await counter(metrics, 'proxy_migrate_slack_api_calls_total', {
        method: 'chat.postMessage',
        outcome: 'channel_unavailable',
      }),
    ).toBe(3);
  });

  it('a keyed post whose answer is lost (a timeout) is found, not posted again', async () => {
    const slow = new SlackChat(
      fakeSlackClient(fake, { rejectRateLimitedCalls: true, timeout: 500 }),
      { metrics },
    );
    fake.slowAnswers('chat.postMessage', 1_500, 1);
    const { ts } = await slow.post('C0SLOW', { text: 'card' }, { key: 'run-1:card' });
    expect(fake.messages.filter((m) => m.channel === 'C0SLOW')).toHaveLength(1);
    expect(fake.findMessage('C0SLOW', ts)?.metadata).toEqual({
      event_type: 'proxy_migrate_post',
      event_payload: { key: 'run-1:card' },
    });
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
  });

  it('a keyed post that may exist (its run was resumed after a kill) is looked up first', async () => {
    // The process that died had posted it and not kept the ts.
    const first = await chat.post('C0KILLED', { text: 'result' }, { key: 'run-2:result' });
    const again = await chat.post(
      'C0KILLED',
      { text: 'result' },
      { key: 'run-2:result', mayExist: true },
    );
    expect(again.ts).toBe(first.ts);
    expect(fake.messages.filter((m) => m.channel === 'C0KILLED')).toHaveLength(1);
    // Not there yet: posted once, after one look.
    await chat.post('C0KILLED', { text: 'other' }, { key: 'run-2:other', mayExist: true });
    expect(fake.messages.filter((m) => m.channel === 'C0KILLED')).toHaveLength(2);
  });

  it('an expired response_url is an error the caller can fall back from', async () => {
    fake.expireResponseUrls();
    await expect(chat.respond(fake.responseUrl('old'), { text: 'hello' })).rejects.toMatchObject({
      code: 'SLACK_API_ERROR',
      message: expect.stringContaining('HTTP 404') as unknown,
    });
    expect(fake.responses[0]).toMatchObject({ id: 'old', status: 404 });
  });
});
