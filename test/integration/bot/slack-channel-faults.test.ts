// A channel closed to the bot (deleted, or the bot removed) at each point of a pre-flight, and
// expired response_urls: the requester still learns how the run ended, nothing is posted twice,
// no retry storm hits the channel, and the cluster is read once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/interactions/ids.js';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import {
  ANY_CHANNEL_CLUSTER,
  callsFor,
  dmOf,
  expectClusterWorkOnce,
  expectNoPostTwice,
  finished,
  inThread,
  metricValue,
  startPreflight,
  topLevel,
  watchPodsCreated,
} from '../../helpers/slack-faults.js';

const CANNOT_POST = 'the bot cannot post in this channel: invite it';

describe('Slack channel faults during a pre-flight', () => {
  let h: BotHarness;
  let pods: string[];

  beforeAll(async () => {
    h = await startHarness({ extraClusters: ANY_CHANNEL_CLUSTER });
    pods = watchPodsCreated(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  const cannotPostLines = (channel: string) =>
    h.log.lines().filter((l) => String(l.msg).startsWith(CANNOT_POST) && l['channel'] === channel);

  it('channel_not_found on the first post: one log line, a metric, and the end by direct message', async () => {
    h.fake.failChannel('C0GONE1', 'channel_not_found');
    const runId = await startPreflight(h, 'C0GONE1', 'gone1', 'U0ANN');
    const run = await finished(h, runId);
    expect(run.outcome).toBe('failed');
    expect(run.steps.find((s) => s.id === 'card')).toMatchObject({ status: 'failed', attempts: 1 });
    // Nothing was read from a cluster for a run whose card could not be posted.
    expect(run.steps.find((s) => s.id === 'gather')?.attempts).toBe(0);
    const dm = await h.fake.waitFor(() => topLevel(h, dmOf('U0ANN'))[0], 10_000, 'the DM');
    const shown = JSON.stringify(dm.blocks);
    expect(shown).toContain('I could not post in <#C0GONE1>');
    expect(shown).toContain('The bot cannot post in channel C0GONE1 (channel_not_found)');
    expect(shown).toContain('/invite @proxy-migrate');
    expect(shown).toContain(runId);
    // One post tried in the channel, no retry storm, one line naming the channel.
    expect(callsFor(h, 'C0GONE1', 'chat.postMessage')).toBe(1);
    expect(callsFor(h, 'C0GONE1')).toBeLessThanOrEqual(2);
    expect(cannotPostLines('C0GONE1')).toHaveLength(1);
    expect(
      await metricValue(h, 'proxy_migrate_slack_channel_unavailable_total', {
        channel: 'C0GONE1',
        error: 'channel_not_found',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(topLevel(h, dmOf('U0ANN'))).toHaveLength(1);
    expectNoPostTwice(h);
  }, 60_000);

  it('not_in_channel on the first post and no DM possible: the end comes through the response_url', async () => {
    h.fake.failChannel('CNOTIN2', 'not_in_channel');
    h.fake.injectError('conversations.open', 'user_disabled', 10);
    const runId = await startPreflight(h, 'CNOTIN2', 'notin2', 'U0BEN');
    const run = await finished(h, runId);
    expect(run.outcome).toBe('failed');
    const told = await h.fake.waitFor(
      (f) =>
        f.responses.find(
          (r) => r.id === 'notin2' && String(r.body['text']).includes('posted to you directly'),
        ),
      10_000,
      'the ephemeral end through the response_url',
    );
    expect(told.status).toBe(200);
    expect(told.body['response_type']).toBe('ephemeral');
    expect(JSON.stringify(told.body['blocks'])).toContain('(not_in_channel)');
    expect(callsFor(h, 'CNOTIN2', 'chat.postMessage')).toBe(1);
    expect(cannotPostLines('CNOTIN2')).toHaveLength(1);
    // Exactly once: the queued note and the end.
    expect(h.fake.responses.filter((r) => r.id === 'notin2')).toHaveLength(2);
    h.fake.reset();
  });

  it('channel_not_found on the card edit: the report goes to the requester by DM, thread and all', async () => {
    const runId = await startPreflight(h, 'C0GONE3', 'gone3', 'U0CAT');
    await h.fake.waitFor(() => topLevel(h, 'C0GONE3')[0], 10_000, 'the status card');
    // The channel is deleted while the cluster is being read.
    h.fake.failChannel('C0GONE3', 'channel_not_found');
    const run = await finished(h, runId);
    expect(run.outcome).toBe('verified');
    const [dmCard, ...more] = topLevel(h, dmOf('U0CAT'));
    expect(more).toHaveLength(0);
    expect(dmCard?.text).toMatch(/^Pre-flight cluster-any: \d+ blockers/);
    expect(JSON.stringify(dmCard?.blocks)).toContain('I could not post in <#C0GONE3>');
    const replies = inThread(h, dmOf('U0CAT'), dmCard?.ts ?? '');
    expect(replies.some((r) => / checks? passed$/.test(r.text))).toBe(true);
    // Nothing more was tried in the channel than the failing edits: no retry storm.
    expect(callsFor(h, 'C0GONE3', 'chat.postMessage')).toBe(1);
    expect(callsFor(h, 'C0GONE3', 'chat.update')).toBeLessThanOrEqual(3);
    expect(cannotPostLines('C0GONE3')).toHaveLength(1);
    expectClusterWorkOnce(h, run, pods);
    expectNoPostTwice(h);
  }, 60_000);

  it('not_in_channel on the thread replies: the card says where the report went, not "in thread"', async () => {
    const runId = await startPreflight(h, 'C0REPLY4', 'reply4', 'U0DAN');
    const card = await h.fake.waitFor(() => topLevel(h, 'C0REPLY4')[0], 10_000, 'the card');
    // The card can still be edited, but the bot may no longer post (replies, files).
    h.fake.failChannel('C0REPLY4', 'not_in_channel', [
      'chat.postMessage',
      'files.completeUploadExternal',
    ]);
    const run = await finished(h, runId);
    expect(run.outcome).toBe('verified');
    expect(inThread(h, 'C0REPLY4', card.ts)).toHaveLength(0);
    const shown = JSON.stringify(h.fake.findMessage('C0REPLY4', card.ts)?.blocks);
    expect(shown).toContain('Full report ▸ sent to <@U0DAN> by direct message');
    expect(shown).not.toContain('Full report ▸ in thread');
    const [dmCard] = topLevel(h, dmOf('U0DAN'));
    const replies = inThread(h, dmOf('U0DAN'), dmCard?.ts ?? '');
    expect(replies.some((r) => / checks? passed$/.test(r.text))).toBe(true);
    expect(callsFor(h, 'C0REPLY4', 'chat.postMessage')).toBe(2);
    expect(cannotPostLines('C0REPLY4')).toHaveLength(1);
    expectClusterWorkOnce(h, run, pods);
    expectNoPostTwice(h);
  }, 60_000);

  it('expired response_urls: the "queued" answer and a click answer fall back to ephemeral posts in the channel and thread', async () => {
    h.fake.expireResponseUrls('expired5');
    const runId = await startPreflight(h, 'C0EXP5', 'expired5', 'U0EVE');
    const note = await h.fake.waitFor(
      (f) => f.ephemerals.find((e) => e.channel === 'C0EXP5' && e.user === 'U0EVE'),
      10_000,
      'the fallback ephemeral',
    );
    expect(note.text).toContain(`queued (run ${runId})`);
    expect(h.fake.responses.find((r) => r.id === 'expired5')?.status).toBe(404);
    const run = await finished(h, runId);
    expect(run.outcome).toBe('verified');
    expect(topLevel(h, 'C0EXP5')).toHaveLength(1);
    // A click whose response_url expired is answered in the clicked message's thread.
    const card = topLevel(h, 'C0EXP5')[0];
    if (card === undefined) throw new Error('no card');
    h.fake.expireResponseUrls('click5');
    const click = await h.click(ACTION.approve, card, {
      userId: 'U0EVE',
      value: 'not-a-run',
      responseId: 'click5',
    });
    expect(click.status).toBe(200);
    const answer = await h.fake.waitFor(
      (f) => f.ephemerals.find((e) => e.user === 'U0EVE' && e.thread_ts === card.ts),
      10_000,
      'the click answer in the thread',
    );
    expect(answer.channel).toBe('C0EXP5');
    expect(answer.text).not.toBe('');
    expect(h.fake.responses.filter((r) => r.id === 'click5').map((r) => r.status)).toEqual([404]);
    expectClusterWorkOnce(h, run, pods);
    expectNoPostTwice(h);
  }, 60_000);
});
