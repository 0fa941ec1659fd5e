// Cutover approval in Slack, end to end: signed slash commands and button clicks through the
// real Bolt HTTP receiver, BullMQ on Redis, the fake Slack and the twin. The full flow (request,
// approve, verified, Rollback, verified), and every click that must not act: each changes
// nothing on the twin and leaves a record on the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFor, type Twin } from '@proxy-migrate/twin';
import { kubectlWith } from '@proxy-migrate/twin/testing';
import { join } from 'node:path';
import type { RunState } from '../../../src/core/run-state.js';
import { ACTION } from '../../../src/interactions/ids.js';
import type { FakeMessage } from '../../fakes/fake-slack.js';
import { blockActionsBody, buttonClickPayload, postSigned } from '../../fakes/slack-signing.js';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import { cliIn } from '../../helpers/cli.js';
import { REDIS_URL } from '../../helpers/redis.js';
import { assertInvariants, kubeProxyPods } from '../../helpers/invariants.js';

const CHANNEL = 'C0OPS';
const FLOW_MS = 60_000;

function modeOf(twin: Twin, node: string): string | undefined {
  return twin.store.get(resourceFor('nodes'), undefined, node)?.metadata.labels?.[
    'proxy-migrate.io/mode'
  ];
}

/** Writes that reached the twin for real, other than the probe pods pre-flight runs. */
function realWrites(twin: Twin, from: number) {
  return twin.stats
    .writes()
    .slice(from)
    .filter((w) => !w.dryRun && w.resource !== 'pods');
}

async function requestCutover(h: BotHarness, node: string, userId = 'U0ALICE') {
  const id = `req-${node}-${Date.now()}`;
  const ack = await h.command(`cutover cluster-a ${node}`, { userId, responseId: id });
  expect(ack.status).toBe(200);
  const queued = await h.fake.waitFor((f) => f.responses.find((r) => r.id === id));
  const runId = /run (co-[\w-]+)\)/.exec(String(queued.body['text']))?.[1];
  expect(runId, JSON.stringify(queued.body)).toBeDefined();
  const card = await h.fake.waitFor(
    (f) =>
      f.messages.find(
        (m) =>
          m.channel === CHANNEL &&
          m.thread_ts === undefined &&
          m.text.includes(`${node}`) &&
          JSON.stringify(m.blocks).includes(runId ?? '?'),
      ),
    FLOW_MS,
    'the status card',
  );
  const approval = await h.fake.waitFor(
    (f) =>
      f.messages.find(
        (m) => m.thread_ts === card.ts && JSON.stringify(m.blocks).includes(ACTION.approve),
      ),
    FLOW_MS,
    'the approval card',
  );
  return { runId: runId ?? '', card, approval };
}

async function run(h: BotHarness, id: string): Promise<RunState> {
  const state = await h.bot.runs.get(id);
  if (state === undefined) throw new Error(`no run ${id}`);
  return state;
}

/** The ephemeral answer to a click (its response_url), by the click's response id. */
async function answer(h: BotHarness, id: string): Promise<string> {
  const r = await h.fake.waitFor((f) => f.responses.find((x) => x.id === id), 10_000, id);
  expect(r.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
  return String(r.body['text']);
}

/** Polls `check` until it returns something, for at most `ms`. */
async function until<T>(check: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const cancel = (h: BotHarness, runId: string) =>
  h.bot.runs.signal(runId, {
    type: 'cancelled',
    by: { kind: 'terminal', user: 'test' },
    at: new Date().toISOString(),
    reason: 'test over',
  });

const latest = (h: BotHarness, m: FakeMessage): FakeMessage =>
  h.fake.findMessage(m.channel, m.ts) ?? m;

describe('cutover approval in Slack', () => {
  let h: BotHarness;

  beforeAll(async () => {
    h = await startHarness({
      twinSpeed: 1,
      clusterAApprovers: '{ users: [U0BOB], groups: [S0SRE] }',
      clusterAExtra: '    verifyDeadlineSeconds: 20\n',
    });
    h.fake.setUserGroup('S0SRE', ['U0DAVE']);
  }, 30_000);
  afterAll(async () => {
    await h.stop();
  });

  it(
    'approve → cutover verified → Rollback → rollback verified, each card telling who and when',
    async () => {
      const before = kubeProxyPods(h.twin);
      const { runId, card, approval } = await requestCutover(h, 'blue-1');
      const waiting = await run(h, runId);
      expect(waiting.phase).toBe('awaiting-approval');
      const shown = JSON.stringify(approval.blocks);
      expect(shown).toContain(`plan \`${waiting.planHash ?? '?'}\``);
      expect(shown).toContain('Requested by <@U0ALICE>');
      expect(shown).toContain('Node pre-flight:');
      expect(shown).toContain('approvers: <@U0BOB>, <!subteam^S0SRE> · four-eyes on');
      expect(modeOf(h.twin, 'blue-1')).toBeUndefined();

      const click = await h.click(ACTION.approve, approval, { userId: 'U0BOB', responseId: 'ok1' });
      expect(click.status).toBe(200);
      const done = await h.bot.runs.waitFor(runId, FLOW_MS);
      expect(done.outcome, done.reason).toBe('verified');
      expect(done.approvals).toMatchObject([
        { decision: 'approved', by: { kind: 'slack', userId: 'U0BOB', teamId: 'T0TEST' } },
      ]);
      expect(done.journal.every((j) => j.approvedBy?.kind === 'slack')).toBe(true);
      expect(modeOf(h.twin, 'blue-1')).toBe('nftables');

      // The approval card says who approved, and its buttons are gone.
      const closed = await h.fake.waitFor((f) => {
        const m = f.findMessage(CHANNEL, approval.ts);
        return m !== undefined && m.text.includes('Approved by <@U0BOB>') ? m : undefined;
      });
      expect(JSON.stringify(closed.blocks)).not.toContain(ACTION.approve);
      // The result in the thread, with evidence as a file and the Rollback button.
      const result = await h.fake.waitFor((f) =>
        f.messages.find(
          (m) => m.thread_ts === card.ts && JSON.stringify(m.blocks).includes(ACTION.rollback),
        ),
      );
      expect(result.text).toContain('blue-1 now runs nftables, verified');
      const evidence = await h.fake.waitFor((f) =>
        f.files.find((file) => file.filename === `${runId}-evidence.md`),
      );
      expect(evidence.text).toContain('## ✓ nft-table @blue-1');
      expect(evidence.thread_ts).toBe(card.ts);
      expect(JSON.stringify(latest(h, card).blocks)).toContain(ACTION.rollback);

      // Rollback from the result card: the requester, with no second approval.
      const rb = await h.click(ACTION.rollback, result, { userId: 'U0ALICE', responseId: 'rb1' });
      expect(rb.status).toBe(200);
      const cutover = await until(async () => {
        const s = await run(h, runId);
        return typeof s.facts['rollbackRun'] === 'string' ? s : undefined;
      });
      const rollbackId = String(cutover.facts['rollbackRun']);
      const back = await h.bot.runs.waitFor(rollbackId, FLOW_MS);
      expect(back.outcome, back.reason).toBe('verified');
      expect(back.approvals[0]?.by).toEqual({ kind: 'slack', userId: 'U0ALICE', teamId: 'T0TEST' });
      expect(modeOf(h.twin, 'blue-1')).toBeUndefined();
      assertInvariants(h.twin, { before, touched: ['blue-1'], runs: [done, back] });

      // A second click on the same button starts nothing more.
      await h.click(ACTION.rollback, result, { userId: 'U0BOB', responseId: 'rb2' });
      expect(await answer(h, 'rb2')).toMatch(/already requested by <@U0ALICE>/);

      // The audit trail: in Slack, and exported from the terminal as JSON lines.
      await h.command('audit cluster-a blue-1', { responseId: 'audit' });
      const audit = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'audit'));
      const shownAudit = JSON.stringify(audit.body);
      expect(shownAudit).toContain(`${runId} approved by slack:U0BOB@T0TEST: approved plan`);
      expect(shownAudit).toContain(`${rollbackId} ended`);
      const cli = cliIn(join(h.dir, 'cli'), {
        REDIS_URL,
        QUEUE_PREFIX: h.config.queuePrefix,
      });
      const exported = await cli.run('audit', 'cluster-a', '--node', 'blue-1', '--format', 'jsonl');
      expect(exported.code, exported.stderr).toBe(0);
      const lines = exported.stdout
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              runId: string;
              kind: string;
              actor?: string;
              action?: { kind: string };
            },
        );
      const writes = lines.filter((l) => l.runId === runId && l.kind === 'mutation');
      expect(writes.length).toBe(done.journal.filter((j) => j.status !== 'pending').length);
      expect(writes.every((w) => w.actor === 'slack:U0BOB@T0TEST' && w.action !== undefined)).toBe(
        true,
      );
      expect(lines.filter((l) => l.runId === runId && l.kind === 'requested')).toHaveLength(1);
      expect(lines.some((l) => l.runId === rollbackId && l.kind === 'ended')).toBe(true);
    },
    3 * FLOW_MS,
  );

  describe('clicks that must not act', () => {
    let writesBefore: number;
    let target: Awaited<ReturnType<typeof requestCutover>>;

    beforeAll(async () => {
      target = await requestCutover(h, 'blue-2');
      writesBefore = h.twin.stats.writes().length;
    }, FLOW_MS);

    const unchanged = async (refusal: string) => {
      const s = await run(h, target.runId);
      expect(s.phase).toBe('awaiting-approval');
      expect(s.approvals).toEqual([]);
      expect(s.history.map((e) => e.note ?? '').some((n) => n.includes(refusal))).toBe(true);
      expect(realWrites(h.twin, writesBefore)).toEqual([]);
      expect(modeOf(h.twin, 'blue-2')).toBeUndefined();
    };

    it(
      'refuses the requester approving their own run (four-eyes)',
      async () => {
        const own = await requestCutover(h, 'green-1', 'U0BOB');
        const from = h.twin.stats.writes().length;
        await h.click(ACTION.approve, own.approval, { userId: 'U0BOB', responseId: 'own' });
        expect(await answer(h, 'own')).toMatch(/you requested this run, and four-eyes is on/);
        const s = await run(h, own.runId);
        expect(s.phase).toBe('awaiting-approval');
        expect(s.history.at(-1)).toMatchObject({ event: 'approve-refused' });
        expect(realWrites(h.twin, from)).toEqual([]);
        await cancel(h, own.runId);
      },
      FLOW_MS,
    );

    it('refuses a user who is not an approver', async () => {
      await h.click(ACTION.approve, target.approval, { userId: 'U0CAROL', responseId: 'carol' });
      expect(await answer(h, 'carol')).toBe(
        'Not approved: you are not an approver of cluster cluster-a.',
      );
      await unchanged('U0CAROL@T0TEST: you are not an approver');
    });

    it('refuses an approver’s id from another team (Slack Connect)', async () => {
      await h.click(ACTION.approve, target.approval, {
        userId: 'U0BOB',
        teamId: 'T0OTHER',
        responseId: 'other-team',
      });
      expect(await answer(h, 'other-team')).toMatch(/only members of the workspace/);
      await unchanged('U0BOB@T0OTHER');
    });

    it(
      'refuses a tampered value naming another run',
      async () => {
        const other = await requestCutover(h, 'green-2');
        // The other run's id on this run's card: the button does not belong to it.
        await h.click(ACTION.approve, target.approval, {
          userId: 'U0BOB',
          value: other.runId,
          responseId: 'tampered',
        });
        expect(await answer(h, 'tampered')).toMatch(/this button does not belong to that run/);
        expect((await run(h, other.runId)).phase).toBe('awaiting-approval');
        expect((await run(h, other.runId)).approvals).toEqual([]);
        await cancel(h, other.runId);
        // And a value that is no run at all.
        await h.click(ACTION.approve, target.approval, {
          userId: 'U0BOB',
          value: 'co-; rm -rf /',
          responseId: 'garbage',
        });
        expect(await answer(h, 'garbage')).toMatch(/the button names no run/);
        await unchanged('');
      },
      FLOW_MS,
    );

    it('refuses a Rollback click by a stranger, and on a run that wrote nothing', async () => {
      await h.click(ACTION.rollback, target.approval, {
        userId: 'U0CAROL',
        value: target.runId,
        responseId: 'rb-stranger',
      });
      expect(await answer(h, 'rb-stranger')).toMatch(/only an ended cutover can be rolled back/);
      expect((await run(h, target.runId)).facts['rollbackRun']).toBeUndefined();
      await unchanged('rolled back');
    });

    it('ignores an interaction with a forged signature', async () => {
      const payload = buttonClickPayload({
        actionId: ACTION.approve,
        messageTs: target.approval.ts,
        responseUrl: h.fake.responseUrl('forged'),
        channelId: CHANNEL,
        userId: 'U0BOB',
        value: target.runId,
        message: target.approval,
      });
      const response = await postSigned(`${h.baseUrl}/slack/events`, blockActionsBody(payload), {
        secret: 'not-the-signing-secret',
      });
      expect(response.status).toBe(401);
      expect(h.fake.responses.find((r) => r.id === 'forged')).toBeUndefined();
      const s = await run(h, target.runId);
      expect(s.phase).toBe('awaiting-approval');
      expect(s.approvals).toEqual([]);
    });

    it(
      'executes a double click and two approvers racing once, telling the others',
      async () => {
        const results = await Promise.all([
          h.click(ACTION.approve, target.approval, { userId: 'U0BOB', responseId: 'race-1' }),
          h.click(ACTION.approve, target.approval, { userId: 'U0BOB', responseId: 'race-2' }),
          h.click(ACTION.approve, target.approval, { userId: 'U0DAVE', responseId: 'race-3' }),
        ]);
        expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
        const done = await h.bot.runs.waitFor(target.runId, FLOW_MS);
        expect(done.outcome, done.reason).toBe('verified');
        expect(done.approvals.filter((a) => a.decision === 'approved')).toHaveLength(1);
        // Two of the three were told the run was already approved, by whom.
        const told = await h.fake.waitFor((f) => {
          const r = f.responses.filter((x) => x.id.startsWith('race-'));
          return r.length === 2 ? r : undefined;
        });
        for (const r of told) {
          expect(String(r.body['text'])).toMatch(/already approved by <@U0(BOB|DAVE)>/);
        }
      },
      2 * FLOW_MS,
    );
  });

  it(
    'refuses an approval when the cluster changed since the request, and says so on the card',
    async () => {
      const { runId, approval } = await requestCutover(h, 'green-1');
      const kubeconfig = join(h.dir, 'kubeconfig.yaml');
      const kubectl = kubectlWith(kubeconfig, h.dir);
      const patched = await kubectl(
        'patch',
        'daemonset',
        'kube-proxy',
        '-n',
        'kube-system',
        '--type=merge',
        '-p',
        '{"spec":{"minReadySeconds":7}}',
      );
      expect(patched.code, patched.stderr).toBe(0);
      const from = h.twin.stats.writes().length;
      await h.click(ACTION.approve, approval, { userId: 'U0BOB', responseId: 'stale' });
      expect(await answer(h, 'stale')).toMatch(/Not approved: the plan changed since the request/);
      const done = await h.bot.runs.waitFor(runId, 10_000);
      expect(done.outcome).toBe('refused');
      expect(done.reason).toMatch(/the cluster changed since the request .*request again/);
      expect(realWrites(h.twin, from)).toEqual([]);
      const card = await h.fake.waitFor((f) => {
        const m = f.findMessage(CHANNEL, approval.ts);
        return m !== undefined && !JSON.stringify(m.blocks).includes(ACTION.approve)
          ? m
          : undefined;
      });
      expect(card.text).toMatch(/Closed: the cluster changed since the request/);
    },
    FLOW_MS,
  );

  it(
    'rejects with a reason asked for in a modal; the reason goes on the card and the record',
    async () => {
      const { runId, approval } = await requestCutover(h, 'green-2');
      await h.click(ACTION.reject, approval, { userId: 'U0BOB', responseId: 'reject' });
      const modal = await h.fake.waitFor((f) =>
        f.views.find((v) => String(v.view['private_metadata']).includes(runId)),
      );
      // An empty reason keeps the modal open with a field error.
      const empty = await h.submitView(
        modal,
        { reason: { 'reason-text': '   ' } },
        { userId: 'U0BOB' },
      );
      expect(await empty.json()).toMatchObject({ response_action: 'errors' });
      expect((await run(h, runId)).phase).toBe('awaiting-approval');
      // A stranger submitting the same modal is refused.
      await h.submitView(modal, { reason: { 'reason-text': 'nope' } }, { userId: 'U0CAROL' });
      await h.fake.waitFor((f) =>
        f.ephemerals.find((e) => e.user === 'U0CAROL' && e.text.startsWith('Not rejected')),
      );
      await h.submitView(
        modal,
        { reason: { 'reason-text': 'change freeze until Monday' } },
        {
          userId: 'U0BOB',
        },
      );
      const done = await h.bot.runs.waitFor(runId, 10_000);
      expect(done.outcome).toBe('refused');
      expect(done.approvals).toMatchObject([
        { decision: 'rejected', reason: 'change freeze until Monday', by: { userId: 'U0BOB' } },
      ]);
      const card = await h.fake.waitFor((f) => {
        const m = f.findMessage(CHANNEL, approval.ts);
        return m?.text.includes('Rejected by <@U0BOB>') === true ? m : undefined;
      });
      expect(JSON.stringify(card.blocks)).toContain('change freeze until Monday');
      expect(JSON.stringify(card.blocks)).not.toContain(ACTION.approve);
    },
    FLOW_MS,
  );
});

describe('an approval clicked after its expiry', () => {
  let h: BotHarness;
  // The bot's clock, injected: the test moves it past the expiry instead of waiting 30 minutes.
  let offsetMs = 0;

  beforeAll(async () => {
    h = await startHarness({
      overrides: { clock: { now: () => new Date(Date.now() + offsetMs) } },
    });
  }, 30_000);
  afterAll(async () => {
    await h.stop();
  });

  it(
    'is refused, ends the run as expired and takes the buttons off the card',
    async () => {
      const { runId, approval } = await requestCutover(h, 'blue-1');
      const from = h.twin.stats.writes().length;
      offsetMs = 31 * 60_000;
      await h.click(ACTION.approve, approval, { userId: 'U0BOB', responseId: 'late' });
      expect(await answer(h, 'late')).toBe(
        'Not approved: the approval request has expired; request the cutover again.',
      );
      const done = await h.bot.runs.waitFor(runId, 10_000);
      expect(done.outcome).toBe('refused');
      expect(done.reason).toBe('the approval request expired');
      expect(done.approvals).toEqual([]);
      expect(realWrites(h.twin, from)).toEqual([]);
      const card = await h.fake.waitFor((f) => {
        const m = f.findMessage(CHANNEL, approval.ts);
        return m?.text.includes('Expired') === true ? m : undefined;
      });
      expect(JSON.stringify(card.blocks)).not.toContain(ACTION.approve);
    },
    FLOW_MS,
  );
});

describe('the slash commands --dry-run and rollback', () => {
  let h: BotHarness;

  beforeAll(async () => {
    h = await startHarness();
  }, 30_000);
  afterAll(async () => {
    await h.stop();
  });

  it(
    'shows every write it would make, asks nobody, and writes nothing',
    async () => {
      const from = h.twin.stats.writes().length;
      await h.command('cutover cluster-a blue-1 --dry-run', { responseId: 'dry' });
      const queued = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'dry'));
      expect(JSON.stringify(queued.body)).toContain('Dry run of the cutover of *blue-1*');
      const runId = /run (co-[\w-]+)\)/.exec(String(queued.body['text']))?.[1] ?? '';
      const done = await h.bot.runs.waitFor(runId, FLOW_MS);
      expect(done.outcome, done.reason).toBe('verified');
      expect(done.reason).toMatch(/^dry run: /);
      expect(done.approvals).toEqual([]);
      const reply = await h.fake.waitFor((f) =>
        f.messages.find(
          (m) => m.thread_ts !== undefined && m.text.startsWith('dry run of cutover'),
        ),
      );
      const shown = JSON.stringify(reply.blocks);
      expect(shown).toContain(`*What would happen* (plan \`${done.planHash ?? '?'}\``);
      expect(shown).toContain('updateStrategy to OnDelete');
      expect(shown).toContain('label node blue-1 proxy-migrate.io/mode=switching');
      expect(shown).not.toContain(ACTION.approve);
      expect(shown).not.toContain(ACTION.rollback);
      expect(realWrites(h.twin, from)).toEqual([]);
      expect(
        h.twin.stats
          .writes()
          .slice(from)
          .some((w) => w.dryRun),
      ).toBe(true);
      expect(modeOf(h.twin, 'blue-1')).toBeUndefined();
    },
    FLOW_MS,
  );

  it(
    'rolls back from the slash command: at once for an approver, through an approval card for anyone else',
    async () => {
      const cutoverId = await h.bot.runs.start({
        kind: 'cutover',
        cluster: 'cluster-a',
        node: 'green-1',
        requester: { kind: 'terminal', user: 'tester' },
        options: {
          autoRollback: true,
          dryRun: false,
          preApproved: { kind: 'terminal', user: 'tester' },
        },
      });
      expect((await h.bot.runs.waitFor(cutoverId, FLOW_MS)).outcome).toBe('verified');
      // Alice is no approver: her rollback waits for one.
      await h.command('rollback cluster-a green-1', { userId: 'U0ALICE', responseId: 'rb-alice' });
      const asked = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'rb-alice'));
      const aliceRun = /run (rb-[\w-]+)\)/.exec(String(asked.body['text']))?.[1] ?? '';
      await until(async () => {
        const s = await run(h, aliceRun);
        return s.phase === 'awaiting-approval' ? s : undefined;
      }, FLOW_MS);
      await cancel(h, aliceRun);
      // Bob is one: his rollback runs with his approval.
      await h.command('rollback cluster-a green-1', { userId: 'U0BOB', responseId: 'rb-bob' });
      const told = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'rb-bob'));
      const bobRun = /run (rb-[\w-]+)\)/.exec(String(told.body['text']))?.[1] ?? '';
      const back = await h.bot.runs.waitFor(bobRun, FLOW_MS);
      expect(back.outcome, back.reason).toBe('verified');
      expect(back.approvals).toMatchObject([{ decision: 'approved', by: { userId: 'U0BOB' } }]);
      expect(modeOf(h.twin, 'green-1')).toBeUndefined();
    },
    3 * FLOW_MS,
  );
});
