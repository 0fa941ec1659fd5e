// What people see when a pre-flight cannot complete: the card says why, retries do not duplicate posts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import { eventually } from '@proxy-migrate/twin/testing';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('pre-flight failures', () => {
  let h: BotHarness;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pm-down-'));
    const port = await closedPort();
    await writeFile(
      join(dir, 'down.yaml'),
      `apiVersion: v1
kind: Config
clusters: [{ name: down, cluster: { server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true } }]
users: [{ name: down, user: { token: t } }]
contexts: [{ name: down, context: { cluster: down, user: down } }]
current-context: down
`,
    );
    h = await startHarness({
      extraClusters: `  - name: cluster-down
    kubeconfig: ${join(dir, 'down.yaml')}
  - name: cluster-any
    kubeconfig: ./kubeconfig.yaml
    context: kubeadm-ipvs
`,
    });
  });
  afterAll(async () => {
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('edits the card to say the cluster is unreachable, retrying first, with the code and remedy', async () => {
    await h.command('preflight cluster-down', { channelId: 'C0DOWN' });
    const card = await h.fake.waitFor((f) =>
      f.messages.find((m) => m.channel === 'C0DOWN' && m.thread_ts === undefined),
    );
    const retrying = await h.fake.waitFor(() => {
      const now = h.fake.findMessage('C0DOWN', card.ts);
      return now?.text.includes('is retrying') === true ? now : undefined;
    });
    expect(JSON.stringify(retrying.blocks)).toContain(':hourglass_flowing_sand: retrying');
    const failed = await h.fake.waitFor(
      () => {
        const now = h.fake.findMessage('C0DOWN', card.ts);
        return now?.text.includes('failed') === true ? now : undefined;
      },
      20_000,
      'the card to show the final failure',
    );
    const shown = JSON.stringify(failed.blocks);
    expect(shown).toContain(':x: failed *Pre-flight · cluster-down*');
    expect(shown).toContain('the API server is unreachable (ECONNREFUSED)');
    expect(shown).toContain('Check the server address in the kubeconfig');
    expect(shown).toContain('error code `K8S_UNREACHABLE`');
    // One card, edited in place across all three attempts.
    expect(
      h.fake.messages.filter((m) => m.channel === 'C0DOWN' && m.thread_ts === undefined),
    ).toHaveLength(1);
    const run = await eventually('the failed run', async () => {
      const runs = await h.bot.runs.store.list({ cluster: 'cluster-down' });
      return runs.find((r) => r.phase === 'done');
    });
    expect(run.outcome).toBe('failed');
    const gather = run.steps.find((s) => s.id === 'gather');
    expect(gather).toMatchObject({ status: 'failed', attempts: 3 });
    expect(gather?.error?.code).toBe('K8S_UNREACHABLE');
  });

  it('resumes after a transient Slack failure without posting a second card', async () => {
    h.fake.injectError('chat.update', 'internal_error', 1);
    await h.command('preflight cluster-any', { channelId: 'C0RETRY' });
    const replies = await h.fake.waitFor(
      (f) => {
        const inThread = f.messages.filter(
          (m) => m.channel === 'C0RETRY' && m.thread_ts !== undefined,
        );
        return inThread.some((m) => / passed$/.test(m.text)) ? inThread : undefined;
      },
      15_000,
      'the thread replies after the retry',
    );
    const cards = h.fake.messages.filter(
      (m) => m.channel === 'C0RETRY' && m.thread_ts === undefined,
    );
    expect(cards).toHaveLength(1);
    expect(replies.every((r) => r.thread_ts === cards[0]?.ts)).toBe(true);
    expect(cards[0]?.text).toMatch(
      /^Pre-flight cluster-any: \d+ blockers, \d+ warnings \(v1.33.4, mode ipvs/,
    );
    const run = await eventually('the run that carried on', async () => {
      const runs = await h.bot.runs.store.list({ cluster: 'cluster-any' });
      return runs.find((r) => r.options.channel === 'C0RETRY' && r.phase === 'done');
    });
    expect(run.outcome).toBe('verified');
    // The cluster was read once: the Slack failure re-ran only the posting.
    expect(run.steps.find((s) => s.id === 'gather')?.attempts).toBe(1);
  });

  it('fails at once, without retries, when the bot is not in the channel', async () => {
    await h.command('preflight cluster-any', { channelId: 'CNOTIN1' });
    const run = await eventually('the run that failed at once', async () => {
      const runs = await h.bot.runs.store.list({ cluster: 'cluster-any' });
      return runs.find((r) => r.options.channel === 'CNOTIN1' && r.phase === 'done');
    });
    expect(run.outcome).toBe('failed');
    expect(run.steps.find((s) => s.id === 'card')).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'SLACK_NOT_IN_CHANNEL' },
    });
    // Nothing was read from the cluster for a run nobody could be told about.
    expect(run.steps.find((s) => s.id === 'gather')?.attempts).toBe(0);
    expect(
      h.log
        .lines()
        .some((l) => l.msg === 'step failed with an error' && l['code'] === 'SLACK_NOT_IN_CHANNEL'),
    ).toBe(true);
  });
});
