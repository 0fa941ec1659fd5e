// Several pre-flights asked at once in one channel: their posts and edits queue at Slack's pace
// for a channel (about one a second, short bursts) instead of a burst that earns 429s, and each
// run still ends with its one card and its thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLACK_CHANNEL_PACE } from '../../../src/adapters/slack/channel-pacer.js';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import {
  ANY_CHANNEL_CLUSTER,
  expectNoPostTwice,
  finished,
  inThread,
} from '../../helpers/slack-faults.js';
import { eventually } from '@proxy-migrate/twin/testing';

const RUNS = 3;
const CHANNEL = 'C0CROWD';
const WRITES = new Set(['chat.postMessage', 'chat.update', 'files.completeUploadExternal']);

describe('pre-flights crowding one channel', () => {
  let h: BotHarness;

  beforeAll(async () => {
    h = await startHarness({ extraClusters: ANY_CHANNEL_CLUSTER });
  });
  afterAll(async () => {
    await h.stop();
  });

  it(`paces ${RUNS} pre-flights' writes in one channel and finishes every one`, async () => {
    // Three different requests (identical ones would be one run): the probe mode differs.
    const variants = ['', ' --probe all', ' --probe none'];
    await Promise.all(
      Array.from({ length: RUNS }, (_, i) =>
        h.command(`preflight cluster-any${variants[i % variants.length] ?? ''}`, {
          channelId: CHANNEL,
          responseId: `crowd${i}`,
        }),
      ),
    );
    const ids = await eventually('the runs', async () => {
      const runs = await h.bot.runs.store.list({ cluster: 'cluster-any' });
      const here = runs.filter((r) => r.options.channel === CHANNEL);
      return here.length === RUNS ? here.map((r) => r.id) : undefined;
    });
    const runs = await Promise.all(ids.map((id) => finished(h, id, 120_000)));
    for (const run of runs) {
      expect(run.outcome).toBe('verified');
      const cardTs = run.facts['cardTs'];
      expect(typeof cardTs).toBe('string');
      const replies = inThread(h, CHANNEL, String(cardTs));
      expect(replies.some((r) => / checks? passed$/.test(r.text))).toBe(true);
    }
    const cards = h.fake.messages.filter((m) => m.channel === CHANNEL && m.thread_ts === undefined);
    expect(cards).toHaveLength(RUNS);
    const times = h.fake.calls
      .filter((c) => WRITES.has(c.method) && c.args['channel'] === CHANNEL)
      .map((c) => c.at)
      .sort((a, b) => a - b);
    let busiest = 0;
    for (const start of times) {
      busiest = Math.max(busiest, times.filter((t) => t >= start && t < start + 1_000).length);
    }
    const allowed = SLACK_CHANNEL_PACE.burst + SLACK_CHANNEL_PACE.perSecond;
    console.log(
      `slack pacing: ${times.length} writes in ${CHANNEL}, busiest second ${busiest} (allowed ${allowed}), 429s ${
        h.fake.calls.filter((c) => c.status === 429).length
      }`,
    );
    expect(busiest).toBeLessThanOrEqual(allowed);
    expectNoPostTwice(h);
  }, 150_000);
});
