// A Slack that throttles for longer than the old retries lasted, and one that answers after the
// client gave up: the run ends as it should, the person sees it, nothing is posted twice, and
// the cluster is read once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import {
  ANY_CHANNEL_CLUSTER,
  callsFor,
  expectClusterWorkOnce,
  expectNoPostTwice,
  finished,
  inThread,
  metricValue,
  startPreflight,
  topLevel,
  watchPodsCreated,
} from '../../helpers/slack-faults.js';

/** The client's timeout in these tests; the fake's slow answers come after it. */
const CLIENT_TIMEOUT_MS = 1_500;
const SLOW_ANSWER_MS = 3_000;

describe('a throttling or slow Slack during a pre-flight', () => {
  let h: BotHarness;
  let pods: string[];

  beforeAll(async () => {
    h = await startHarness({
      extraClusters: ANY_CHANNEL_CLUSTER,
      overrides: {
        host: '127.0.0.1',
        webClientOptions: { retryConfig: { retries: 0 }, timeout: CLIENT_TIMEOUT_MS },
      },
    });
    pods = watchPodsCreated(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  it('a 429 lasting 16 s on the thread replies is waited out: the report lands, the job does not fail', async () => {
    const runId = await startPreflight(h, 'C0THROTTLE', 'throttle1');
    const card = await h.fake.waitFor(() => topLevel(h, 'C0THROTTLE')[0], 10_000, 'the card');
    const limitedFrom = Date.now();
    // The thread replies meet it; so would the card edits, which share the channel's lane.
    h.fake.rateLimitFor('chat.postMessage', 16_000, 4);
    const run = await finished(h, runId, 90_000);
    expect(run.outcome).toBe('verified');
    // No step failed: the posting step waited within its one attempt.
    expect(run.steps.every((s) => s.status === 'done' && s.attempts === 1)).toBe(true);
    const replies = inThread(h, 'C0THROTTLE', card.ts);
    expect(replies.some((r) => / checks? passed$/.test(r.text))).toBe(true);
    expect(h.fake.findMessage('C0THROTTLE', card.ts)?.text).toMatch(/^Pre-flight cluster-any: /);
    expect(h.log.text()).not.toContain('could not be reached');
    // Retry-After honoured: about one try per 4 s while it lasted, not a storm.
    const refused = h.fake.calls.filter((c) => c.status === 429 && c.at >= limitedFrom);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(16 / 4 + 2);
    expect(
      await metricValue(h, 'proxy_migrate_slack_api_calls_total', {
        method: 'chat.postMessage',
        outcome: 'rate_limited',
      }),
    ).toBeGreaterThan(0);
    expectClusterWorkOnce(h, run, pods);
    expectNoPostTwice(h);
  }, 90_000);

  it('a card post answered after the client timeout is found in the channel, not posted again', async () => {
    h.fake.slowAnswers('chat.postMessage', SLOW_ANSWER_MS, 1);
    const runId = await startPreflight(h, 'C0SLOWCARD', 'slow2');
    const run = await finished(h, runId, 60_000);
    expect(run.outcome).toBe('verified');
    const cards = topLevel(h, 'C0SLOWCARD');
    expect(cards).toHaveLength(1);
    expect(run.facts['cardTs']).toBe(cards[0]?.ts);
    expect(callsFor(h, 'C0SLOWCARD', 'conversations.history')).toBeGreaterThanOrEqual(1);
    expect(cards[0]?.text).toMatch(/^Pre-flight cluster-any: /);
    expect(inThread(h, 'C0SLOWCARD', cards[0]?.ts ?? '').length).toBeGreaterThan(0);
    expect(
      await metricValue(h, 'proxy_migrate_slack_api_calls_total', {
        method: 'chat.postMessage',
        outcome: 'uncertain',
      }),
    ).toBeGreaterThan(0);
    expectClusterWorkOnce(h, run, pods);
    expectNoPostTwice(h);
  }, 90_000);

  it('a thread reply answered after the client timeout is found in the thread, not posted again', async () => {
    const runId = await startPreflight(h, 'C0SLOWREPLY', 'slow3');
    const card = await h.fake.waitFor(() => topLevel(h, 'C0SLOWREPLY')[0], 10_000, 'the card');
    // The next post is the first reply of the thread.
    h.fake.slowAnswers('chat.postMessage', SLOW_ANSWER_MS, 1);
    const run = await finished(h, runId, 60_000);
    expect(run.outcome).toBe('verified');
    expect(callsFor(h, 'C0SLOWREPLY', 'conversations.replies')).toBeGreaterThanOrEqual(1);
    const replies = inThread(h, 'C0SLOWREPLY', card.ts);
    expect(replies.some((r) => / checks? passed$/.test(r.text))).toBe(true);
    expect(topLevel(h, 'C0SLOWREPLY')).toHaveLength(1);
    expectClusterWorkOnce(h, run, pods);
    expectNoPostTwice(h);
  }, 90_000);
});
