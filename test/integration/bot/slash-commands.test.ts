// Signed slash commands through the real Bolt HTTP receiver, BullMQ on Redis, the twin and the fake Slack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSigned, slashCommandBody, nowSeconds } from '../../fakes/slack-signing.js';
import { SIGNING_SECRET, startHarness, type BotHarness } from '../../helpers/bot-harness.js';

interface AckBody {
  response_type?: string;
  text?: string;
  blocks?: unknown[];
}

async function ackBody(response: Response): Promise<AckBody> {
  expect(response.status).toBe(200);
  const text = await response.text();
  return text === '' ? {} : (JSON.parse(text) as AckBody);
}

describe('slash commands end to end', () => {
  let h: BotHarness;

  beforeAll(async () => {
    h = await startHarness({
      extraClusters: `  - name: cluster-b
    kubeconfig: ./kubeconfig.yaml
    context: kubeadm-ipvs
    channels: [C0ELSEWHERE]
`,
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers help with every verb, ephemerally, in the ack itself', async () => {
    const body = await ackBody(await h.command('help'));
    expect(body.response_type).toBe('ephemeral');
    expect(JSON.stringify(body.blocks)).toContain('/proxy-migrate preflight &lt;cluster&gt;');
    expect(JSON.stringify(body.blocks)).toContain('/proxy-migrate clusters');
    // An empty command is help too.
    expect((await ackBody(await h.command(''))).text).toMatch(/^proxy-migrate: /);
  });

  it('lists only the clusters this channel may drive, with their channels and approvers', async () => {
    const body = await ackBody(await h.command('clusters'));
    const shown = JSON.stringify(body);
    expect(body.response_type).toBe('ephemeral');
    expect(shown).toContain('*1 cluster* usable from this channel');
    expect(shown).toContain(':large_green_circle: *cluster-a* · context kubeadm-ipvs');
    expect(shown).toContain('<@U0BOB>');
    expect(shown).not.toContain('cluster-b');
    expect(shown).not.toContain('C0ELSEWHERE');
  });

  it('runs a pre-flight: ack, queued note, status card edited in place, one reply per pool', async () => {
    const before = h.fake.messages.length;
    const body = await ackBody(await h.command('preflight cluster-a', { responseId: 'pf1' }));
    expect(body).toEqual({});

    const queued = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'pf1'));
    expect(JSON.stringify(queued.body)).toContain('Pre-flight for *cluster-a* queued');
    expect(queued.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    const runId = /run (pf-[a-z0-9-]+)/.exec(JSON.stringify(queued.body))?.[1];
    expect(runId).toBeDefined();

    const card = await h.fake.waitFor(
      (f) =>
        f.messages
          .slice(before)
          .find(
            (m) =>
              m.thread_ts === undefined &&
              m.updates > 0 &&
              m.text.startsWith('Pre-flight cluster-a'),
          ),
      15_000,
      'the pre-flight card to be edited with the result',
    );
    expect(card.channel).toBe('C0OPS');
    const run = await h.bot.runs.waitFor(runId!, 20_000);
    expect(run.outcome).toBe('verified');
    const report = run.facts['report'] as { summary: Record<string, number>; currentMode: string };
    const overview = run.facts['overview'] as { nodes: unknown[] };
    expect(run.facts['cardTs']).toBe(card.ts);
    expect(overview.nodes).toHaveLength(6);
    expect(report.currentMode).toBe('ipvs');
    const result = { summary: report.summary };

    // The card: cluster, version, platform, mode, counts, the blockers first.
    const cardText = JSON.stringify(h.fake.findMessage(card.channel, card.ts)?.blocks);
    expect(cardText).toContain(
      '*Pre-flight · cluster-a* · v1.33.4 · kubeadm · mode ipvs (6 nodes, 4 pools)',
    );
    expect(cardText).toContain(`:no_entry: ${result.summary.block} blocker`);
    expect(result.summary.block).toBeGreaterThan(0);
    expect(cardText).toContain('*Blockers*');
    expect(cardText).toContain('*kernel-version* · pool legacy');
    expect(cardText).toContain('requested by <@U0ALICE>');
    expect(cardText).toContain(runId);

    // The thread: a short line per finding, in a reply per pool with findings (legacy has the
    // kernel blocker) and one cluster-wide; then each check's explanation and commands once;
    // then the checks that passed. Each reply's notification text says what it holds.
    const replies = h.fake.messages.filter((m) => m.thread_ts === card.ts);
    const threadText = JSON.stringify(replies.map((r) => r.blocks));
    expect(threadText).toContain('*Pool legacy* · cluster-a · 1 node');
    expect(threadText).toContain(
      ':no_entry: *kernel-version* · pool legacy: 1 of 1 node (legacy-1) on kernel 5.4',
    );
    expect(threadText).toContain('*Details* · cluster-a');
    const notifications = replies.map((r) => r.text);
    expect(notifications).toContainEqual(
      expect.stringMatching(/^Pre-flight cluster-a · pool legacy: \d+ blockers?/),
    );
    expect(notifications).toContainEqual(
      expect.stringMatching(/^Pre-flight cluster-a: details for kernel-version, /),
    );
    expect(new Set(notifications).size).toBe(notifications.length);
    expect(threadText).toContain('*Cluster-wide* · cluster-a');
    expect(threadText).toContain(':white_check_mark: passed:');
    expect(threadText).toContain('```');
    // Job data and run state in Redis carry ids only: no tokens, no response URL.
    const jobs = await h.queue.getJobs(['completed', 'failed', 'waiting', 'delayed', 'active']);
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(JSON.stringify(job.data)).not.toMatch(/xoxb|respond|hooks/);
    expect(JSON.stringify(run)).not.toMatch(/xoxb|respond|hooks/);
  });

  it.each([
    [
      'prefligth cluster-a',
      'UNKNOWN_VERB',
      'Did you mean /proxy-migrate preflight &lt;cluster&gt;?',
    ],
    ['preflight', 'USAGE', 'Known clusters: cluster-a.'],
    ['preflight clster-a', 'UNKNOWN_CLUSTER', 'Did you mean cluster-a?'],
    ['preflight cluster-a now', 'USAGE', 'Unexpected arguments: now.'],
    ['preflight cluster-b', 'CHANNEL_NOT_ALLOWED', 'Run it from <#C0ELSEWHERE>'],
  ])('rejects %j with %s, ephemerally, and queues nothing', async (text, code, hint) => {
    const jobsBefore = await h.jobCount();
    const body = await ackBody(await h.command(text));
    expect(body.response_type).toBe('ephemeral');
    const shown = JSON.stringify(body.blocks);
    expect(shown).toContain(hint);
    expect(shown).toContain(`error code \`${code}\``);
    expect(shown).not.toMatch(/at .*\.ts:\d+/);
    expect(await h.jobCount()).toBe(jobsBefore);
  });

  it('rejects forged signatures and stale timestamps with 401 and queues nothing', async () => {
    // The earlier pre-flight's last paced edits may still be landing: start from a quiet Slack.
    await h.fake.waitFor(
      (f) => f.calls.length > 0 && Date.now() - (f.calls.at(-1)?.at ?? 0) > 1_500,
      15_000,
      'Slack to be quiet',
    );
    const jobsBefore = await h.jobCount();
    const callsBefore = h.fake.calls.length;
    const body = slashCommandBody({
      text: 'preflight cluster-a',
      response_url: h.fake.responseUrl('forged'),
    });
    const url = `${h.baseUrl}/slack/events`;
    const forged = await postSigned(url, body, {
      secret: SIGNING_SECRET,
      signature: `v0=${'0'.repeat(64)}`,
    });
    expect(forged.status).toBe(401);
    const wrongSecret = await postSigned(url, body, { secret: 'ffffffffffffffffffffffffffffffff' });
    expect(wrongSecret.status).toBe(401);
    const stale = await postSigned(url, body, {
      secret: SIGNING_SECRET,
      timestamp: nowSeconds() - 6 * 60,
    });
    expect(stale.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await h.jobCount()).toBe(jobsBefore);
    expect(h.fake.calls.length).toBe(callsBefore);
    expect(h.fake.responses.some((r) => r.id === 'forged')).toBe(false);
  });

  // Found by the bad-input suite: a well-formed name of a node the cluster does not have started
  // a run (the lock, a card, probe pods) that only its pre-flight refused.
  it.each(['cutover', 'rollback'])(
    'refuses a %s of a node the cluster does not have, without a run',
    async (verb) => {
      const jobsBefore = await h.jobCount();
      const postsBefore = h.fake.messages.length;
      const id = `nonode-${verb}`;
      expect(
        await ackBody(await h.command(`${verb} cluster-a zz-ghost-1`, { responseId: id })),
      ).toEqual({});
      const reply = await h.fake.waitFor((f) => f.responses.find((r) => r.id === id));
      expect(reply.body['response_type']).toBe('ephemeral');
      expect(JSON.stringify(reply.body)).toContain(
        'Cluster cluster-a has no node \\"zz-ghost-1\\"',
      );
      expect(JSON.stringify(reply.body)).toContain('error code `USAGE`');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await h.jobCount()).toBe(jobsBefore);
      expect(h.fake.messages.length).toBe(postsBefore);
      expect(h.fake.responses.filter((r) => r.id === id)).toHaveLength(1);
    },
  );

  it('never logs tokens, signing secrets or response URLs', () => {
    const text = h.log.text();
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(h.fake.botToken);
    expect(text).not.toContain(SIGNING_SECRET);
    expect(text).not.toContain('/respond/');
  });
});
