/**
 * The bad-input suite against the whole bot: real Bolt behind the edge guard, BullMQ and the
 * audit trail on Redis, the fake Slack, the twin. One cutover waits for approval (its cards are
 * what the clicks and the modal aim at); then every case is sent over HTTP, a batch at a time,
 * and judged: a clear answer for each (an ephemeral reply, a modal error or a 4xx), and for the
 * whole batch no new run or job, nothing written on the twin, nothing posted in a channel, the
 * target run still waiting with every refusal recorded on it. At the end every log line since
 * the first case is read for error levels, stack traces and secrets, and the audit trail is
 * compared with the refusals logged. `npm run suite:bad-input` prints it; a vitest runs fewer.
 */
import { resourceFor } from '@proxy-migrate/twin';
import { Redis } from 'ioredis';
import { RedisAuditLog } from '../../../src/adapters/audit/redis.js';
import { DRIFT_CHECK_JOB } from '../../../src/engine/jobs.js';
import { ACTION } from '../../../src/interactions/ids.js';
import type { FakeMessage } from '../../fakes/fake-slack.js';
import { SIGNING_SECRET, startHarness, type BotHarness } from '../bot-harness.js';
import { REDIS_URL } from '../redis.js';
import { categories, type CaseTarget, type Category, type FuzzCase } from './case.js';
import { sampleCases } from './cases.js';
import { headersFor, send, type Sent } from './send.js';

export interface SuiteOptions {
  cases: number;
  seed: number;
  /** Requests in flight at once (default 16). */
  concurrency?: number;
  /** Cases between state checks (default 250). */
  batch?: number;
  onProgress?(done: number, total: number): void;
}

export interface Failure {
  category: Category | 'state' | 'log' | 'audit' | 'process';
  describe: string;
  why: string;
}

export interface SuiteResult {
  seed: number;
  cases: number;
  byCategory: Record<Category, { cases: number; failures: number }>;
  /** 4xx answers, ephemeral replies, modal errors, refusals recorded on the target run. */
  answers: { http4xx: number; ephemeral: number; modal: number; recorded: number };
  logLines: number;
  failures: Failure[];
  seconds: number;
}

const ANSWER_WAIT_MS = 20_000;
const CHANNEL = 'C0OPS';
const REQUESTER = 'U0ALICE';
const NODE = 'blue-1';

interface Outcome {
  c: FuzzCase;
  first: Sent;
  second?: Sent;
}

interface Ack {
  response_type?: unknown;
  text?: unknown;
  blocks?: unknown;
  response_action?: unknown;
}

function parseAck(body: string): Ack | undefined {
  if (body === '') return undefined;
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

const BROADCAST = /<!(here|channel|everyone)(\|[^>]*)?>/;
const STACK = /\n\s+at |\bat [^\s]+ \([^)]*:\d+:\d+\)|node_modules\/|file:\/\//;

/** Why a reply or log text leaks something, or undefined. */
function leak(text: string, secrets: readonly string[]): string | undefined {
  if (STACK.test(text)) return 'a stack trace';
  for (const secret of secrets) if (text.includes(secret)) return 'a secret';
  if (/v0=[0-9a-f]{64}/i.test(text)) return 'a request signature';
  if (/x-slack-signature|"authorization"|bearer /i.test(text)) return 'a secret header';
  return undefined;
}

const isError = (reply: unknown): boolean => {
  const s = JSON.stringify(reply);
  return s.includes('error code') || s.includes('not installed for this workspace');
};

async function until<T>(
  check: () => T | undefined | Promise<T | undefined>,
  ms: number,
): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the bot and a cutover of blue-1 by U0ALICE that waits for approval. */
async function setUp(): Promise<{ h: BotHarness; target: CaseTarget }> {
  const h = await startHarness({
    clusterAApprovers: '{ users: [U0BOB], groups: [S0SRE] }',
    env: { SLACK_APP_ID: 'A0TEST', LOG_LEVEL: 'debug' },
    extraClusters: `  - name: cluster-b
    kubeconfig: ./kubeconfig.yaml
    context: kubeadm-ipvs
    channels: [C0ELSEWHERE]
    approvers: { users: [U0CAROL] }
`,
  });
  h.fake.setUserGroup('S0SRE', ['U0DAVE']);
  const ack = await h.command(`cutover cluster-a ${NODE}`, {
    userId: REQUESTER,
    responseId: 'setup',
  });
  if (ack.status !== 200) throw new Error(`the setup cutover was answered ${ack.status}`);
  const queued = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'setup'));
  const runId = /run (co-[\w-]+)\)/.exec(String(queued.body['text']))?.[1];
  if (runId === undefined) throw new Error(`no run id in ${JSON.stringify(queued.body)}`);
  const approval: FakeMessage = await h.fake.waitFor(
    (f) =>
      f.messages.find(
        (m) =>
          JSON.stringify(m.blocks).includes(ACTION.approve) &&
          JSON.stringify(m.blocks).includes(runId),
      ),
    90_000,
    'the approval card',
  );
  // The expiry is scheduled just after the card is posted: the baseline starts after it.
  await until(async () => {
    const jobs = await h.queue.getJobs();
    return jobs.some((j) => JSON.stringify(j.data).includes('"expired"')) ? true : undefined;
  }, 10_000);
  const state = await h.bot.runs.get(runId);
  if (state?.phase !== 'awaiting-approval') throw new Error(`run ${runId} is ${state?.phase}`);
  const messageTs = ['cardTs', 'approvalTs', 'resultTs']
    .map((k) => state.facts[k])
    .filter((ts): ts is string => typeof ts === 'string');
  const nodes = h.twin.store
    .list(resourceFor('nodes'))
    .items.flatMap((n) => (n.metadata.name === undefined ? [] : [n.metadata.name]));
  return {
    h,
    target: {
      runId,
      requester: REQUESTER,
      channel: CHANNEL,
      messageTs,
      approval: { ts: approval.ts, text: approval.text, blocks: approval.blocks },
      node: NODE,
      approvers: ['U0BOB', 'U0DAVE'],
      clusters: ['cluster-a'],
      nodes,
      otherChannel: 'C0ELSEWHERE',
      homeTeam: h.fake.teamId,
    },
  };
}

async function pool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

export async function runBadInputSuite(options: SuiteOptions): Promise<SuiteResult> {
  const started = performance.now();
  const failures: Failure[] = [];
  const crashes: string[] = [];
  const onCrash = (error: unknown): void => {
    crashes.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  const { h, target } = await setUp();
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
  try {
    const secrets = [SIGNING_SECRET, h.fake.botToken];
    const byCategory = Object.fromEntries(
      categories.map((c) => [c, { cases: 0, failures: 0 }]),
    ) as SuiteResult['byCategory'];
    const answers = { http4xx: 0, ephemeral: 0, modal: 0, recorded: 0 };
    const fail = (category: Failure['category'], describe: string, why: string): void => {
      failures.push({ category, describe, why });
      if (category in byCategory) byCategory[category as Category].failures += 1;
    };

    const runJobs = async (): Promise<string[]> =>
      (await h.queue.getJobs())
        .filter((j) => j.name !== DRIFT_CHECK_JOB)
        .map((j) => `${j.name} ${JSON.stringify(j.data).slice(0, 200)}`);
    const jobsBefore = new Set(await runJobs());
    const runsBefore = (await h.bot.runs.store.list({ limit: 1_000 })).length;
    const writesBefore = h.twin.stats.writes().length;
    const logBefore = h.log.lines().length;
    const postsBefore = h.fake.messages.length;
    const refusedOnRun = async (): Promise<number> =>
      ((await h.bot.runs.get(target.runId))?.history ?? []).filter((e) =>
        e.event.endsWith('-refused'),
      ).length;
    const refusedBefore = await refusedOnRun();
    let recordedExpected = 0;

    const builders = sampleCases(options.cases, options.seed);
    const batchSize = options.batch ?? 250;
    let done = 0;
    for (let from = 0; from < builders.length; from += batchSize) {
      const batch = builders.slice(from, from + batchSize).map((build, i) => {
        const responseId = `fz${from + i}`;
        return build({ target, responseId, responseUrl: h.fake.responseUrl(responseId) });
      });
      const outcomes: Outcome[] = [];
      const ephemeralsBefore = new Map<string, number>();
      for (const e of h.fake.ephemerals)
        ephemeralsBefore.set(e.user, (ephemeralsBefore.get(e.user) ?? 0) + 1);
      await pool(batch, options.concurrency ?? 16, async (c) => {
        const headers = headersFor(SIGNING_SECRET, c.request);
        const first = await send(h.bot.port, c.request, headers);
        const outcome: Outcome = { c, first };
        if (c.request.replay !== undefined) {
          const again =
            c.request.replay === 'slack-retry'
              ? { ...headers, 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' }
              : headers;
          outcome.second = await send(h.bot.port, c.request, again);
        }
        outcomes.push(outcome);
      });
      await judgeBatch(h, outcomes, ephemeralsBefore, secrets, fail, answers);
      for (const { c } of outcomes) {
        byCategory[c.category].cases += 1;
        if (c.recorded) recordedExpected += 1;
      }

      // The batch changed nothing: no run, no job, no write on the twin, no post in a channel.
      const state = await h.bot.runs.get(target.runId);
      if (state?.phase !== 'awaiting-approval' || state.approvals.length > 0) {
        fail(
          'state',
          `after case ${from + batch.length}`,
          `the target run is ${state?.phase} (${state?.approvals.length} decisions)`,
        );
      }
      const jobs = (await runJobs()).filter((j) => !jobsBefore.has(j));
      if (jobs.length > 0) {
        fail(
          'state',
          `after case ${from + batch.length}`,
          `${jobs.length} new jobs: ${jobs.slice(0, 3).join('; ')}`,
        );
      }
      const runs = (await h.bot.runs.store.list({ limit: 1_000 })).length;
      if (runs !== runsBefore)
        fail('state', `after case ${from + batch.length}`, `${runs - runsBefore} new runs`);
      const writes = h.twin.stats.writes().slice(writesBefore);
      if (writes.length > 0) {
        fail(
          'state',
          `after case ${from + batch.length}`,
          `${writes.length} writes on the twin: ${writes
            .slice(0, 3)
            .map((w) => `${w.verb} ${w.resource}/${w.name ?? ''}`)
            .join(', ')}`,
        );
      }
      const posts = h.fake.messages.length - postsBefore;
      if (posts > 0)
        fail('state', `after case ${from + batch.length}`, `${posts} messages posted in a channel`);
      if (failures.length > 200) break;
      done += batch.length;
      options.onProgress?.(done, builders.length);
    }

    // Every refusal logged for the target run is on the run and in the audit trail, and at least
    // those the cases were sure of.
    const recorded = (await refusedOnRun()) - refusedBefore;
    answers.recorded = recorded;
    const lines = h.log.lines().slice(logBefore);
    const logged = lines.filter(
      (l) => l.msg === 'click refused' && l.runId === target.runId,
    ).length;
    if (recorded !== logged) {
      fail(
        'audit',
        'refusals on the target run',
        `${logged} refusals logged, ${recorded} recorded on the run`,
      );
    }
    if (recorded < recordedExpected) {
      fail(
        'audit',
        'refusals on the target run',
        `${recordedExpected} certain refusals, ${recorded} recorded`,
      );
    }
    const audit = new RedisAuditLog(redis, h.config.queuePrefix, 86_400_000);
    const inAudit = await until(async () => {
      const entries = await audit.query({ cluster: 'cluster-a', sinceMs: 0, limit: 1_000_000 });
      const n = entries.filter(
        (e) => e.runId === target.runId && e.kind === 'click-refused',
      ).length;
      return n >= refusedBefore + recorded ? n : undefined;
    }, 10_000);
    if (inAudit === undefined) {
      const entries = await audit.query({ cluster: 'cluster-a', sinceMs: 0, limit: 1_000_000 });
      const n = entries.filter(
        (e) => e.runId === target.runId && e.kind === 'click-refused',
      ).length;
      fail(
        'audit',
        'the audit trail',
        `${n} click-refused entries, ${refusedBefore + recorded} refusals on the run`,
      );
    }

    for (const line of lines) {
      const text = JSON.stringify(line);
      const level = line.level;
      if (level === 'error' || level === 'fatal') {
        fail(
          'log',
          String(line.msg).slice(0, 120),
          `logged at ${String(level)}: ${text.slice(0, 300)}`,
        );
        continue;
      }
      const why = leak(text.replace(/\\n/g, '\n'), secrets);
      if (why !== undefined)
        fail(
          'log',
          String(line.msg).slice(0, 120),
          `a log line holds ${why}: ${text.slice(0, 300)}`,
        );
    }
    for (const crash of crashes) fail('process', 'uncaught', crash);

    return {
      seed: options.seed,
      cases: Object.values(byCategory).reduce((n, c) => n + c.cases, 0),
      byCategory,
      answers,
      logLines: lines.length,
      failures,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    redis.disconnect();
    await h.stop();
  }
}

async function judgeBatch(
  h: BotHarness,
  outcomes: readonly Outcome[],
  ephemeralsBefore: ReadonlyMap<string, number>,
  secrets: readonly string[],
  fail: (category: Category, describe: string, why: string) => void,
  answers: SuiteResult['answers'],
): Promise<void> {
  const responsesFor = (id: string) => h.fake.responses.filter((r) => r.id === id);
  const acks = new Map(outcomes.map((o) => [o, parseAck(o.first.body)]));
  /** Whether the case's answer has arrived (it may come through the response_url later). */
  const answered = (o: Outcome): boolean => {
    const ack = acks.get(o);
    const responses = responsesFor(o.c.responseId);
    switch (o.c.answer.kind) {
      case 'http':
      case 'view':
        return true;
      case 'reply': {
        const inAck = typeof ack?.text === 'string' && ack.text !== '';
        if (o.c.answer.refusal)
          return (inAck && isError(ack)) || responses.some((r) => isError(r.body));
        return inAck || responses.length > 0;
      }
      case 'response':
        return responses.length > 0 || o.first.status !== 200;
      case 'http-or-response':
        return o.first.status !== 200 || responses.length > 0;
    }
  };
  await until(() => (outcomes.every(answered) ? true : undefined), ANSWER_WAIT_MS);
  // Modal answers that are ephemeral messages: how many each user is owed.
  const owed = new Map<string, number>();

  for (const o of outcomes) {
    const { c, first } = o;
    const bad = (why: string): void => fail(c.category, c.describe, why);
    if (first.status === undefined) {
      bad(`no HTTP answer (${first.error ?? '?'})`);
      continue;
    }
    if (first.status >= 500) {
      bad(`answered ${first.status}`);
      continue;
    }
    const responses = responsesFor(c.responseId);
    const texts = [first.body, ...responses.map((r) => JSON.stringify(r.body))];
    const leaked = texts.map((t) => leak(t, secrets)).find((w) => w !== undefined);
    if (leaked !== undefined) bad(`the reply holds ${leaked}`);
    // Echoed input is escaped: a hostile name must not become a live @here or @channel.
    if (texts.some((t) => BROADCAST.test(t))) bad('the reply holds a live broadcast mention');
    const ack = acks.get(o);
    if (first.status >= 400) answers.http4xx += 1;
    switch (c.answer.kind) {
      case 'http':
        if (!c.answer.statuses.includes(first.status))
          bad(`answered ${first.status}, not ${c.answer.statuses.join('/')}`);
        if (responses.length > 0)
          bad('a refused request was answered through its response_url: it ran');
        break;
      case 'reply': {
        if (first.status !== 200) {
          bad(`answered ${first.status}`);
          break;
        }
        if (!answered(o)) {
          bad(c.answer.refusal ? 'no error reply' : 'no reply');
          break;
        }
        const shown = [ack, ...responses.map((r) => r.body)].filter((r) => r !== undefined);
        if (shown.some((r) => (r as Ack).response_type !== 'ephemeral'))
          bad('a reply that is not ephemeral');
        answers.ephemeral += 1;
        break;
      }
      case 'response': {
        if (first.status !== 200 || first.body !== '') {
          bad(`acked ${first.status} ${first.body.slice(0, 80)}`);
          break;
        }
        const [reply, ...more] = responses;
        if (reply === undefined) {
          bad('no answer to the click');
          break;
        }
        const raw = reply.body['text'];
        const text = typeof raw === 'string' ? raw : '';
        if (reply.body['response_type'] !== 'ephemeral') bad('the answer is not ephemeral');
        if (!c.answer.pattern.test(text)) bad(`answered ${JSON.stringify(text.slice(0, 160))}`);
        if (more.length > 0) bad(`${responses.length} answers to one click`);
        answers.ephemeral += 1;
        break;
      }
      case 'http-or-response':
        if (first.status >= 400) {
          if (responses.length > 0) bad('answered 4xx and through the response_url');
        } else if (responses.length === 0) {
          bad('acked 200 and never answered');
        } else {
          if (responses.some((r) => r.body['response_type'] !== 'ephemeral'))
            bad('the answer is not ephemeral');
          answers.ephemeral += 1;
        }
        break;
      case 'view': {
        if (first.status !== 200) {
          bad(`answered ${first.status}`);
          break;
        }
        if (ack?.response_action === 'errors' || ack?.response_action === 'update') {
          answers.modal += 1;
          break;
        }
        if (first.body !== '') bad(`acked ${first.body.slice(0, 80)}`);
        owed.set(c.answer.user, (owed.get(c.answer.user) ?? 0) + 1);
        break;
      }
    }
    if (o.second !== undefined) {
      const expected = c.request.replay === 'slack-retry' ? 200 : 409;
      if (o.second.status !== expected)
        bad(`the second delivery was answered ${o.second.status}, not ${expected}`);
      else if (o.second.body !== '')
        bad(`the second delivery was answered ${o.second.body.slice(0, 80)}`);
      if (responses.length > 1) bad(`the second delivery ran: ${responses.length} answers`);
    }
  }
  if (owed.size > 0) {
    const count = (user: string): number =>
      h.fake.ephemerals.filter((e) => e.user === user).length - (ephemeralsBefore.get(user) ?? 0);
    await until(
      () => ([...owed].every(([u, n]) => count(u) >= n) ? true : undefined),
      ANSWER_WAIT_MS,
    );
    for (const [user, n] of owed) {
      const got = count(user);
      if (got < n)
        fail(
          'view-reject',
          `${n} submissions by ${JSON.stringify(user.slice(0, 40))}`,
          `${n - got} submissions were never answered`,
        );
      else answers.ephemeral += n;
    }
  }
}
