// The read-only verbs through signed slash commands to the real Bolt receiver, the fake Slack and
// the twin: `plan` posts the summary and hash in the channel and the diffs in its thread, writing
// nothing but server-side dry runs (the same plan, hash included, as the terminal's `plan`);
// `status` posts the terminal's status as a card; wrong requests get one sentence and a remedy,
// only to the person who typed them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin, type WriteRecord } from '@proxy-migrate/twin';
import { kubectlWith } from '@proxy-migrate/twin/testing';
import type { FakeMessage } from '../../fakes/fake-slack.js';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import { cliIn } from '../../helpers/cli.js';

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

const shape = (w: WriteRecord) =>
  `${w.verb} ${w.resource}${w.name === undefined ? '' : ` ${w.name}`}${w.dryRun ? ' (dry run)' : ''}`;

describe('plan and status from Slack', () => {
  let h: BotHarness;
  let eks: Twin;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pm-plan-status-'));
    eks = await startTwin({ scenario: 'eks-al2-al2023' });
    await eks.writeKubeconfig(join(dir, 'eks.kubeconfig'));
    // A cluster whose API server is gone: its twin is closed before the bot starts.
    const gone = await startTwin({ scenario: 'kubeadm-ipvs' });
    await gone.writeKubeconfig(join(dir, 'gone.kubeconfig'));
    await gone.close();
    h = await startHarness({
      extraClusters: `  - name: eks-a
    kubeconfig: ${join(dir, 'eks.kubeconfig')}
    context: ${eks.name}
    channels: [C0OPS]
  - name: gone-a
    kubeconfig: ${join(dir, 'gone.kubeconfig')}
    context: kubeadm-ipvs
    channels: [C0OPS]
  - name: cluster-b
    kubeconfig: ./kubeconfig.yaml
    context: kubeadm-ipvs
    channels: [C0ELSEWHERE]
`,
    });
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await eks.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The parent message the bot posted in C0OPS since `before` whose text starts with `prefix`. */
  const parent = (before: number, prefix: string) =>
    h.fake.waitFor(
      (f) =>
        f.messages
          .slice(before)
          .find(
            (m) => m.channel === 'C0OPS' && m.thread_ts === undefined && m.text.startsWith(prefix),
          ),
      20_000,
      `a message starting "${prefix}"`,
    );

  it('plans a node: ack at once, card with hash in the channel, diffs as a file in its thread, only dry runs', async () => {
    const before = h.fake.messages.length;
    const writesBefore = h.twin.stats.writes().length;
    const body = await ackBody(await h.command('plan cluster-a blue-1'));
    expect(body.response_type).toBe('ephemeral');
    expect(JSON.stringify(body.blocks)).toContain('Planning *cluster-a*, node *blue-1*');

    const card: FakeMessage = await parent(before, 'Plan ');
    expect(card.text).toMatch(
      /^Plan [0-9a-f]{7} for cluster-a, node blue-1: canary allowed, 6 actions, dry run accepted$/,
    );
    const hash = /^Plan ([0-9a-f]{7})/.exec(card.text)?.[1] ?? '';
    const shown = JSON.stringify(card.blocks);
    expect(shown).toContain(
      `:clipboard: *Plan \`${hash}\` · cluster-a* · node *blue-1* (pool blue) · kubeadm`,
    );
    expect(shown).toContain(':white_check_mark: *Canary allowed.*');
    expect(shown).toContain('1. set DaemonSet kube-system/kube-proxy updateStrategy to OnDelete');
    expect(shown).toContain('6. label node blue-1 proxy-migrate.io/mode=nftables (was switching)');
    expect(shown).toContain('*Dry run:* every write accepted by the API server (dryRun=All)');
    expect(shown).toContain('• mode: ipvs → nftables');
    expect(shown).toContain('*Not carried (no nftables equivalent)*');
    expect(shown).toContain('one canary per pool: blue-1 (blue)');
    expect(shown).toContain('legacy-1 by `kernel-version`');
    expect(shown).toContain('requested by <@U0ALICE>');

    // The diffs are long: one .diff file in the card's thread, uploaded the external way.
    const file = await h.fake.waitFor(
      (f) => f.files.find((x) => x.thread_ts === card.ts),
      10_000,
      'the diff file in the thread',
    );
    expect(file.channel).toBe('C0OPS');
    expect(file.filename).toBe(`plan-cluster-a-${hash}.diff`);
    expect(file.text).toContain(
      '# set DaemonSet kube-system/kube-proxy updateStrategy to OnDelete',
    );
    expect(file.text).toContain('-    mode: ipvs');
    expect(file.text).toContain('+    mode: nftables');
    expect(file.text).toContain('+    type: OnDelete');
    expect(h.fake.callsTo('files.getUploadURLExternal').length).toBeGreaterThan(0);
    expect(h.fake.callsTo('files.completeUploadExternal').length).toBeGreaterThan(0);

    // Every write reached the API server as a dry run: the shared objects and the node's labels.
    const writes = h.twin.stats.writes().slice(writesBefore);
    expect(writes.map(shape)).toEqual([
      'patch daemonsets kube-proxy (dry run)',
      'patch daemonsets kube-proxy (dry run)',
      'create configmaps (dry run)',
      'create daemonsets (dry run)',
      'patch nodes blue-1 (dry run)',
      'patch nodes blue-1 (dry run)',
    ]);

    // One implementation: the terminal's plan of the same cluster has the same hash.
    await writeFile(
      join(dir, 'clusters.yaml'),
      `clusters:\n  - name: cluster-a\n    kubeconfig: ${join(h.dir, 'kubeconfig.yaml')}\n    context: ${h.twin.name}\n    poolLabel: node-pool\n`,
    );
    const cli = cliIn(join(dir, 'runs'), { CLUSTERS_FILE: join(dir, 'clusters.yaml') });
    const out = await cli.run('plan', 'cluster-a', 'blue-1', '--format', 'json');
    expect(out.code, out.stderr).toBe(0);
    expect((JSON.parse(out.stdout) as { hash: string }).hash).toBe(hash);
  });

  it('plans an EKS cluster and says a cutover will be refused, with the platform’s commands', async () => {
    const before = h.fake.messages.length;
    const writesBefore = eks.stats.writes().length;
    await ackBody(await h.command('plan eks-a'));
    const card = await parent(before, 'Plan ');
    expect(card.text).toMatch(
      /^Plan [0-9a-f]{7} for eks-a: canary refused, 4 actions, dry run accepted$/,
    );
    const shown = JSON.stringify(card.blocks);
    expect(shown).toContain(
      ':no_entry: *Canary refused: a cutover of this cluster will be refused.*',
    );
    expect(shown).toContain('Amazon EKS manages kube-proxy');
    expect(shown).toContain('aws eks update-addon --cluster-name');
    await h.fake.waitFor((f) => f.files.find((x) => x.thread_ts === card.ts), 10_000);
    const writes = eks.stats.writes().slice(writesBefore);
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.filter((w) => !w.dryRun)).toEqual([]);
  });

  it('shows status as a card: a labelled node, the invariants it breaks and their repairs', async () => {
    const kubectl = kubectlWith(join(h.dir, 'kubeconfig.yaml'), h.dir);
    const labelled = await kubectl('label', 'node', 'blue-2', 'proxy-migrate.io/mode=switching');
    expect(labelled.code, labelled.stderr).toBe(0);
    try {
      const before = h.fake.messages.length;
      const body = await ackBody(await h.command('status cluster-a'));
      expect(body.response_type).toBe('ephemeral');
      expect(JSON.stringify(body.blocks)).toContain('Reading the status of *cluster-a*');
      const card = await parent(before, 'Status of cluster-a');
      const shown = JSON.stringify(card.blocks);
      expect(shown).toContain(':bar_chart: *Status · cluster-a* · 6 nodes (');
      expect(shown).toContain('· migration in progress');
      // Modes come from each node's kube-proxy (probe pods), not from the label.
      expect(shown).toMatch(/:large_blue_circle: \*ipvs\* · \d: /);
      expect(shown).toContain(
        '• *blue-2* (blue) · mode ipvs · kube-proxy original · label `switching`',
      );
      expect(shown).toContain('*Runs in flight:* none');
      expect(shown).toContain(':unlock: *Cluster lock:* free');
      // A label without the canary's NotIn and OnDelete: the original would come back.
      expect(shown).toContain('*`original-affinity`* · DaemonSet kube-system/kube-proxy');
      expect(shown).toContain('*`original-strategy`*');
      expect(shown).toContain(':wrench: ');
      expect(shown).toContain('requested by <@U0ALICE>');
    } finally {
      await kubectl('label', 'node', 'blue-2', 'proxy-migrate.io/mode-');
    }
  });

  it('lists plan and status in help', async () => {
    const shown = JSON.stringify((await ackBody(await h.command('help'))).blocks);
    expect(shown).toContain('/proxy-migrate plan &lt;cluster&gt; [node]');
    expect(shown).toContain('/proxy-migrate status &lt;cluster&gt;');
  });

  it.each([
    ['plan clster-a', 'UNKNOWN_CLUSTER', 'Did you mean cluster-a?'],
    ['status clster-a', 'UNKNOWN_CLUSTER', 'Did you mean cluster-a?'],
    ['plan', 'USAGE', 'Usage: /proxy-migrate plan &lt;cluster&gt; [node]'],
    ['plan cluster-a blue-1 now', 'USAGE', 'Unexpected arguments: now.'],
    ['plan cluster-a Blue_1', 'USAGE', 'is not a node name'],
    ['status cluster-b', 'CHANNEL_NOT_ALLOWED', 'Run it from <#C0ELSEWHERE>'],
    ['plan cluster-b', 'CHANNEL_NOT_ALLOWED', 'Run it from <#C0ELSEWHERE>'],
  ])('refuses %j with %s in the ack, ephemerally, reading nothing', async (text, code, hint) => {
    const messagesBefore = h.fake.messages.length;
    const requestsBefore = h.twin.stats.snapshot()['total'];
    const body = await ackBody(await h.command(text));
    expect(body.response_type).toBe('ephemeral');
    const shown = JSON.stringify(body.blocks);
    expect(shown).toContain(hint);
    expect(shown).toContain(`error code \`${code}\``);
    expect(h.fake.messages.length).toBe(messagesBefore);
    expect(h.twin.stats.snapshot()['total']).toBe(requestsBefore);
  });

  it('answers a node the cluster does not have after the ack, only to the asker, writing nothing', async () => {
    const messagesBefore = h.fake.messages.length;
    const writesBefore = h.twin.stats.writes().length;
    await ackBody(await h.command('plan cluster-a no-such-node', { responseId: 'nonode' }));
    const reply = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'nonode'));
    expect(reply.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    const shown = JSON.stringify(reply.body);
    expect(shown).toContain('Cluster cluster-a has no node \\"no-such-node\\".');
    expect(shown).toContain('error code `USAGE`');
    expect(h.fake.messages.length).toBe(messagesBefore);
    expect(h.twin.stats.writes().slice(writesBefore)).toEqual([]);
  });

  it('says so, with the code and what to check, when the cluster cannot be reached', async () => {
    const messagesBefore = h.fake.messages.length;
    await ackBody(await h.command('plan gone-a', { responseId: 'gone-plan' }));
    await ackBody(await h.command('status gone-a', { responseId: 'gone-status' }));
    for (const id of ['gone-plan', 'gone-status']) {
      const reply = await h.fake.waitFor((f) => f.responses.find((r) => r.id === id), 20_000);
      expect(reply.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      const shown = JSON.stringify(reply.body);
      expect(shown).toContain('error code `K8S_UNREACHABLE`');
      expect(shown).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(h.fake.messages.length).toBe(messagesBefore);
  });
});
