/**
 * The load suite's two bursts against a running bot (load-rig.ts), with the accounting that
 * proves every request was answered exactly once. Shared by `npm run suite:load` (figures, a
 * bare Bolt listener beside it) and its reduced form in CI (assertions, no timings).
 *
 * - Commands: n identical `/proxy-migrate preflight cluster-a`, from three people: one run, one
 *   "queued" answer and n − 1 "already running, see the thread" answers, one each.
 * - Clicks: c Approve clicks spread over runs waiting for approval, by the approver (several
 *   times per run), the requester (four-eyes) and a non-approver: per run exactly one approval
 *   executes and says so on the card; every other click gets one refusal, only to its clicker.
 */
import { ACTION } from '../../src/interactions/ids.js';
import type { FakeMessage } from '../fakes/fake-slack.js';
import { buttonValue } from './bot-harness.js';
import { burst, type BurstAnswer, type SignedRequest } from './burst.js';
import type { LoadRig } from './load-rig.js';

const USERS = ['U0ALICE', 'U0BOB', 'U0CAROL'] as const;

/** Ack times of one burst: the bot's, and the bare listener's in the same burst when there is one. */
export interface BurstTimes {
  bot: number[];
  bare: number[];
}

/** Sends `requests` to the bot, interleaved with as many to the bare listener when it runs. */
async function sendBurst(
  rig: LoadRig,
  requests: readonly SignedRequest[],
  bareTwin: (i: number) => SignedRequest,
): Promise<{ bot: BurstAnswer[]; bare: BurstAnswer[] }> {
  const all = requests.flatMap((request, i) =>
    rig.bareUrl === undefined ? [request] : [request, bareTwin(i)],
  );
  const answers = await burst(all);
  const step = rig.bareUrl === undefined ? 1 : 2;
  return {
    bot: answers.filter((_, k) => k % step === 0),
    bare: answers.filter((_, k) => k % step === 1),
  };
}

/** Posts made more than once: the same text and blocks in the same channel and thread. */
export function duplicatePosts(rig: LoadRig): number {
  const seen = new Map<string, number>();
  for (const call of rig.fake.callsTo('chat.postMessage')) {
    const { channel, thread_ts: thread, text, blocks } = call.args;
    const key = JSON.stringify([channel, thread, text, blocks]);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen.values()].filter((count) => count > 1).length;
}

/** response_url posts per request id. */
function answersById(rig: LoadRig, prefix: string): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const response of rig.fake.responses) {
    if (!response.id.startsWith(prefix)) continue;
    byId.set(response.id, [...(byId.get(response.id) ?? []), String(response.body['text'])]);
  }
  return byId;
}

export interface CommandOutcome {
  times: BurstTimes;
  sent: number;
  /** HTTP 200 acks (one per request, or the request failed). */
  acked: number;
  /** Requests answered through their response_url exactly once, more than once, never. */
  answeredOnce: number;
  answeredTwice: number;
  unanswered: number;
  queued: number;
  alreadyRunning: number;
  /** "Already running" answers that carry the thread's link. */
  withLink: number;
  /** Runs the burst started for the cluster, and status cards posted for them. */
  runs: number;
  cards: number;
}

export async function commandBurst(
  rig: LoadRig,
  n: number,
  waitMs = 30_000,
): Promise<CommandOutcome> {
  const preflights = async (): Promise<number> =>
    (await rig.store.list({ cluster: 'cluster-a', limit: 1_000 })).filter(
      (r) => r.kind === 'preflight',
    ).length;
  const before = await preflights();
  const requests = Array.from({ length: n }, (_, i) =>
    rig.command(rig.botUrl, 'preflight cluster-a', `cmd-${i}`, { userId: USERS[i % 3]! }),
  );
  const { bot, bare } = await sendBurst(rig, requests, (i) =>
    rig.command(rig.bareUrl ?? '', 'preflight cluster-a', `bare-cmd-${i}`),
  );
  await rig.fake
    .waitFor((f) => new Set(f.responses.map((r) => r.id)).size >= n, waitMs, 'every answer')
    .catch(() => undefined);
  // Anything answering twice would have had time to.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const byId = answersById(rig, 'cmd-');
  const texts = [...byId.values()].flat();
  const cards = rig.fake
    .callsTo('chat.postMessage')
    .filter((c) => c.args['thread_ts'] === undefined)
    .filter((c) => String(c.args['text']).startsWith('Pre-flight for cluster-a')).length;
  return {
    times: { bot: bot.map((a) => a.ms), bare: bare.map((a) => a.ms) },
    sent: n,
    acked: bot.filter((a) => a.status === 200).length,
    answeredOnce: [...byId.values()].filter((t) => t.length === 1).length,
    answeredTwice: [...byId.values()].filter((t) => t.length > 1).length,
    unanswered: n - byId.size,
    queued: texts.filter((t) => /^Pre-flight for cluster-a queued/.test(t)).length,
    alreadyRunning: texts.filter((t) => t.includes('is already running')).length,
    withLink: texts.filter((t) => /see the thread \S+\/archives\/C0OPS\/p\d+/.test(t)).length,
    runs: (await preflights()) - before,
    cards,
  };
}

/** Requests cutovers of `nodes` as alice and waits for each run's approval card. */
export async function runsAwaitingApproval(
  rig: LoadRig,
  nodes: readonly string[],
  waitMs = 60_000,
): Promise<{ runId: string; card: FakeMessage }[]> {
  const asked = nodes.map((node, i) =>
    rig.command(rig.botUrl, `cutover cluster-a ${node}`, `setup-${i}`, { userId: 'U0ALICE' }),
  );
  await burst(asked);
  const runIds = await rig.fake.waitFor(
    (f) => {
      const ids = nodes.map((_, i) => {
        const text = f.responses.find((r) => r.id === `setup-${i}`)?.body['text'];
        return /run (co-[\w-]+)\)/.exec(String(text))?.[1];
      });
      return ids.every((id) => id !== undefined) ? ids : undefined;
    },
    waitMs,
    'every cutover to be requested',
  );
  return rig.fake.waitFor(
    (f) => {
      const cards = runIds.map((runId) => ({
        runId,
        card: f.messages.find((m) => buttonValue(m.blocks, ACTION.approve) === runId),
      }));
      return cards.every((c) => c.card !== undefined)
        ? (cards as { runId: string; card: FakeMessage }[])
        : undefined;
    },
    waitMs,
    'an approval card for every cutover',
  );
}

export interface ClickOutcome {
  times: BurstTimes;
  sent: number;
  acked: number;
  /** Runs whose approval executed exactly once (one approval recorded, by the approver). */
  approvedOnce: number;
  /** Runs with more than one approval recorded: must be 0. */
  approvedTwice: number;
  /** Clicks that got exactly one refusal, more than one answer, or none (the winners). */
  refusedOnce: number;
  answeredTwice: number;
  silent: number;
  /** Approval cards edited to say who approved. */
  cardsClosed: number;
}

export async function clickBurst(
  rig: LoadRig,
  cards: readonly { runId: string; card: FakeMessage }[],
  c: number,
  waitMs = 30_000,
): Promise<ClickOutcome> {
  // Round the runs; on each, half the clicks by the approver (racing each other), a quarter by
  // the requester and a quarter by a non-approver.
  const run = (i: number) => cards[i % cards.length]!;
  const who = (i: number): string =>
    ['U0BOB', 'U0ALICE', 'U0BOB', 'U0CAROL'][Math.floor(i / cards.length) % 4]!;
  const requests = Array.from({ length: c }, (_, i) =>
    rig.click(rig.botUrl, ACTION.approve, run(i).card, `click-${i}`, { userId: who(i) }),
  );
  const { bot, bare } = await sendBurst(rig, requests, (i) =>
    rig.click(rig.bareUrl ?? '', ACTION.approve, run(i).card, `bare-click-${i}`),
  );
  const expected = c - cards.length;
  await rig.fake
    .waitFor(
      (f) => f.responses.filter((r) => r.id.startsWith('click-')).length >= expected,
      waitMs,
      'an answer to every refused click',
    )
    .catch(() => undefined);
  const closed = (): number =>
    cards.filter((card) => {
      const now = rig.fake.findMessage(card.card.channel, card.card.ts);
      return (
        now !== undefined &&
        now.updates > 0 &&
        buttonValue(now.blocks, ACTION.approve) === undefined
      );
    }).length;
  // Card edits go through the channel's pace (about one write a second): wait for them, bounded.
  await rig.fake
    .waitFor((f) => (closed() === cards.length ? f : undefined), waitMs, 'the cards closed')
    .catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const byId = answersById(rig, 'click-');
  const states = await Promise.all(cards.map((card) => rig.store.get(card.runId)));
  const approvals = states.map(
    (s) => s?.approvals.filter((a) => a.decision === 'approved').length ?? 0,
  );
  const cardsClosed = closed();
  return {
    times: { bot: bot.map((a) => a.ms), bare: bare.map((a) => a.ms) },
    sent: c,
    acked: bot.filter((a) => a.status === 200).length,
    approvedOnce: states.filter(
      (s, i) =>
        approvals[i] === 1 &&
        s?.approvals[0]?.by.kind === 'slack' &&
        s.approvals[0].by.userId === 'U0BOB',
    ).length,
    approvedTwice: approvals.filter((count) => count > 1).length,
    refusedOnce: [...byId.values()].filter(
      (t) => t.length === 1 && t[0]!.startsWith('Not approved'),
    ).length,
    answeredTwice: [...byId.values()].filter((t) => t.length > 1).length,
    silent: c - byId.size,
    cardsClosed,
  };
}
