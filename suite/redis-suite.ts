/**
 * The Redis suite: bot runs (pre-flights, cutovers and their rollbacks, driven through signed
 * Slack requests against the real Bolt stack, BullMQ, the twin and the fake Slack) while a
 * private redis-server (AOF on) is restarted at seeded random points with SIGTERM or SIGKILL.
 * Counts what a person would notice: runs that never ended or ended wrong (lost), runs nobody
 * asked for (duplicated), and thread posts missing from or repeated in Slack compared with the
 * same flow run once without restarts. The shared Redis (REDIS_URL) is never touched.
 */
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { runMessages } from '../src/core/authorize.js';
import type { RunState } from '../src/core/run-state.js';
import { ACTION } from '../src/interactions/ids.js';
import type { FakeMessage } from '../test/fakes/fake-slack.js';
import { startHarness, type BotHarness } from '../test/helpers/bot-harness.js';
import { startPrivateRedis, type Fsync, type PrivateRedis } from '../test/helpers/redis-server.js';

export type FlowKind = 'preflight' | 'cutover';
type Signal = 'SIGTERM' | 'SIGKILL';

export interface RedisSuiteOptions {
  /** Flows to run under restarts; a cutover flow is two runs (the cutover and its rollback). */
  runs: number;
  seed: number;
  fsync: Fsync;
  /** Also run one pre-flight on a Redis without persistence and report what it lost. */
  withoutPersistence: boolean;
  /** The flows in order (the reduced suite fixes them); default a seeded random mix. */
  kinds?: readonly FlowKind[];
  /** How long one run may take to end before it counts as lost; default 120 s. */
  runDeadlineMs?: number;
  /** The twin's clock speed (pods start and stop faster); default 1. */
  twinSpeed?: number;
  /** Where to write the bot's log lines at the end (to see why a run was lost). */
  logFile?: string;
  /** Progress lines (the suite's CLI prints them; tests keep quiet). */
  progress?: (line: string) => void;
}

export interface FlowRecord {
  kind: FlowKind;
  runIds: string[];
  restarts: Signal[];
  /** Requests answered QUEUE_UNAVAILABLE (Redis was down) and sent again, as a person would. */
  refused: number;
  ms: number;
  /** Why the flow stopped short (a run that never ended, a request never answered). */
  failure?: string;
}

export interface RedisSuiteResult {
  flows: FlowRecord[];
  runs: number;
  restarts: Record<Signal, number>;
  refusedWhileDown: number;
  lostRuns: string[];
  duplicatedRuns: string[];
  lostPosts: string[];
  duplicatedPosts: string[];
  outcomes: Record<string, number>;
  wallMs: number;
  withoutPersistence?: NoPersistenceResult;
}

export interface NoPersistenceResult {
  runId: string;
  signal: Signal;
  /** The run's state was gone from Redis after the restart. */
  stateLost: boolean;
  ended: boolean;
  cardFinal: boolean;
  missingPosts: number;
  expectedPosts: number;
}

const CHANNEL = 'C0OPS';
const NODE = 'blue-1';
const RUN_DEADLINE_MS = 120_000;
const REQUEST_DEADLINE_MS = 20_000;

/** mulberry32: a small seeded generator, so a seed replays the same restarts. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const UNAVAILABLE =
  /QUEUE_UNAVAILABLE|RUN_STORE_UNAVAILABLE|not reachable|could not be read or saved/;

/** Text of a post with what legitimately differs between runs of one flow taken out. */
export function normalizePost(text: string): string {
  return text
    .replace(/\b(pf|co|rb|rp)-[a-z0-9-]+/g, 'RUN')
    .replace(/<!date\^[^>]*>/g, 'DATE')
    .replace(/\d+(\.\d+)?/g, 'N');
}

/** Polls `read` (which may throw while Redis is down) until it returns something. */
async function until<T>(what: string, ms: number, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch {
      // Redis is down or restarting: ask again.
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

class Flows {
  private responses = 0;
  refused = 0;
  /** Run ids of the flow under way, as they become known (a failed flow keeps them). */
  current: string[] = [];

  constructor(
    private readonly h: BotHarness,
    private readonly runDeadlineMs = RUN_DEADLINE_MS,
  ) {}

  private nextId(label: string): string {
    this.responses += 1;
    return `${label}-${this.responses}`;
  }

  private answerTo(id: string) {
    return this.h.fake.responses.find((r) => r.id === id);
  }

  private async readyAgain(): Promise<void> {
    await until('readiness', REQUEST_DEADLINE_MS, async () =>
      (await fetch(`${this.h.baseUrl}/readyz`)).status === 200 ? true : undefined,
    );
  }

  /** Sends a slash command until it is accepted; resolves to the run id the bot answered. */
  async command(text: string, idPattern: RegExp): Promise<string> {
    for (;;) {
      const id = this.nextId('cmd');
      await this.h.command(text, { responseId: id });
      const answer = await until(`answer to ${text}`, REQUEST_DEADLINE_MS, () =>
        Promise.resolve(this.answerTo(id)),
      );
      const shown = JSON.stringify(answer.body);
      if (UNAVAILABLE.test(shown)) {
        this.refused += 1;
        await this.readyAgain();
        continue;
      }
      const runId = idPattern.exec(shown)?.[1];
      if (runId === undefined) throw new Error(`no run id in the answer to ${text}: ${shown}`);
      this.current.push(runId);
      return runId;
    }
  }

  /** Clicks until `done` sees the click's effect; a click answered "unavailable" is sent again. */
  async click<T>(
    runId: string,
    actionId: string,
    message: () => FakeMessage | undefined,
    userId: string,
    done: () => Promise<T | undefined>,
  ): Promise<T> {
    for (;;) {
      const target = await until(`message with ${actionId}`, REQUEST_DEADLINE_MS, () =>
        Promise.resolve(message()),
      );
      // A person clicks once the bot has noted the message on the run (its buttons act only
      // then); a click within the same millisecond as the post is refused WRONG_MESSAGE.
      await until(`${actionId} message noted on ${runId}`, REQUEST_DEADLINE_MS, async () => {
        const state = await this.get(runId);
        return state !== undefined && runMessages(state).includes(target.ts) ? true : undefined;
      });
      const id = this.nextId('click');
      await this.h.click(actionId, target, { userId, responseId: id });
      const outcome = await until(`effect of ${actionId}`, REQUEST_DEADLINE_MS, async () => {
        const answer = this.answerTo(id);
        if (answer !== undefined && UNAVAILABLE.test(JSON.stringify(answer.body))) {
          return { retry: true as const };
        }
        const value = await done();
        return value === undefined ? undefined : { retry: false as const, value };
      });
      if (!outcome.retry) return outcome.value;
      this.refused += 1;
      await this.readyAgain();
    }
  }

  get(runId: string): Promise<RunState | undefined> {
    return this.h.bot.runs.get(runId);
  }

  ended(runId: string): Promise<RunState> {
    return until(`run ${runId} to end`, this.runDeadlineMs, async () => {
      const state = await this.get(runId);
      return state?.phase === 'done' ? state : undefined;
    });
  }

  card(runId: string): FakeMessage | undefined {
    return this.h.fake.messages.find(
      (m) =>
        m.channel === CHANNEL &&
        m.thread_ts === undefined &&
        JSON.stringify(m.blocks).includes(runId),
    );
  }

  async preflight(): Promise<string[]> {
    const runId = await this.command('preflight cluster-a', /run (pf-[a-z0-9-]+)/);
    await this.ended(runId);
    return [runId];
  }

  async cutover(): Promise<string[]> {
    const runId = await this.command(`cutover cluster-a ${NODE}`, /run (co-[\w-]+)\)/);
    const inThread = (actionId: string) => (): FakeMessage | undefined => {
      const card = this.card(runId);
      if (card === undefined) return undefined;
      return this.h.fake.messages.find(
        (m) => m.thread_ts === card.ts && JSON.stringify(m.blocks).includes(actionId),
      );
    };
    await this.click(runId, ACTION.approve, inThread(ACTION.approve), 'U0BOB', async () => {
      const state = await this.get(runId);
      return (state?.approvals.length ?? 0) > 0 ? state : undefined;
    });
    await this.ended(runId);
    const rollback = await this.click(
      runId,
      ACTION.rollback,
      inThread(ACTION.rollback),
      'U0ALICE',
      async () => {
        const state = await this.get(runId);
        const id = state?.facts['rollbackRun'];
        return typeof id === 'string' ? id : undefined;
      },
    );
    this.current.push(rollback);
    await this.ended(rollback);
    return [runId, rollback];
  }
}

/** A flow's posts in Slack: the final text of each card naming its first run, their threads' messages and files. */
function postsOf(h: BotHarness, runIds: readonly string[]): string[] {
  const first = runIds[0] ?? '?';
  const cards = h.fake.messages.filter(
    (m) =>
      m.channel === CHANNEL &&
      m.thread_ts === undefined &&
      JSON.stringify(m.blocks).includes(first),
  );
  return cards.flatMap((card) => {
    const latest = h.fake.findMessage(card.channel, card.ts) ?? card;
    const thread = h.fake.messages.filter((m) => m.thread_ts === card.ts);
    const files = h.fake.files.filter((f) => f.thread_ts === card.ts);
    return [
      `card: ${normalizePost(latest.text)}`,
      ...thread.map((m) => `reply: ${normalizePost(m.text)}`),
      ...files.map((f) => `file: ${normalizePost(f.filename)}`),
    ];
  });
}

/** Where a run that did not end stands: its phase and step, and its jobs' states in BullMQ. */
async function diagnose(h: BotHarness, id: string, state: RunState | undefined): Promise<string> {
  if (state === undefined) return ' (no state in Redis)';
  const jobs = await h.queue.getJobs([
    'active',
    'waiting',
    'delayed',
    'failed',
    'completed',
    'prioritized',
    'waiting-children',
  ]);
  const mine = await Promise.all(
    jobs
      .filter((j) => j.id?.startsWith(id) === true)
      .sort((a, b) => b.timestamp - a.timestamp)
      .slice(0, 3)
      .map(async (j) => `${j.id ?? '?'} ${await j.getState()} (attempts ${j.attemptsMade})`),
  );
  return ` (phase ${state.phase}, step ${state.stepIndex}; last jobs: ${mine.join(', ') || 'none'})`;
}

/** Multiset difference: entries of `a` not matched by one of `b`. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = [...b];
  return a.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

async function restart(redis: PrivateRedis, signal: Signal, downMs: number): Promise<void> {
  await redis.stop(signal);
  await sleep(downMs);
  await redis.start();
}

const expectedOutcome: Record<FlowKind, string> = { preflight: 'verified', cutover: 'verified' };

async function runFlow(flows: Flows, kind: FlowKind): Promise<string[]> {
  flows.current = [];
  return kind === 'preflight' ? flows.preflight() : flows.cutover();
}

export async function runRedisSuite(options: RedisSuiteOptions): Promise<RedisSuiteResult> {
  const started = performance.now();
  const say = options.progress ?? (() => undefined);
  const random = rng(options.seed);
  const redis = await startPrivateRedis({ persistence: { appendfsync: options.fsync } });
  const h = await startHarness({
    redisUrl: redis.url,
    twinSpeed: options.twinSpeed ?? 1,
    clusterAExtra: '    verifyDeadlineSeconds: 20\n',
  });
  try {
    const flows = new Flows(h, options.runDeadlineMs);
    // One flow of each kind without restarts: what every later flow must post, and how long it
    // takes (restarts land within that time).
    const kinds = Array.from(
      { length: options.runs },
      (_, i): FlowKind => options.kinds?.[i] ?? (random() < 0.5 ? 'preflight' : 'cutover'),
    );
    const baseline = new Map<FlowKind, { posts: string[]; ms: number }>();
    const needed = new Set<FlowKind>([
      ...kinds,
      ...(options.withoutPersistence ? ['preflight' as const] : []),
    ]);
    for (const kind of (['preflight', 'cutover'] as const).filter((k) => needed.has(k))) {
      const t = performance.now();
      const ids = await runFlow(flows, kind);
      baseline.set(kind, { posts: postsOf(h, ids), ms: performance.now() - t });
      say(`baseline ${kind}: ${ids.join(', ')} in ${Math.round(performance.now() - t)} ms`);
    }
    const baselineIds = new Set(
      (await h.bot.runs.store.list({ cluster: 'cluster-a', limit: 1_000 })).map((r) => r.id),
    );

    const records: FlowRecord[] = [];
    for (let i = 0; i < options.runs; i++) {
      const kind = kinds[i] ?? 'preflight';
      const expected = baseline.get(kind)?.ms ?? 5_000;
      // One or two restarts at random points of the flow (within 80% of its undisturbed time,
      // so they land before it ends), each down for 0.1–1.5 s.
      const plan: { at: number; signal: Signal; downMs: number }[] = Array.from(
        { length: random() < 0.5 ? 1 : 2 },
        (): { at: number; signal: Signal; downMs: number } => ({
          at: random() * expected * 0.8,
          signal: random() < 0.5 ? 'SIGTERM' : 'SIGKILL',
          downMs: 100 + random() * 1_400,
        }),
      ).sort((a, b) => a.at - b.at);
      const refusedBefore = flows.refused;
      const t = performance.now();
      let flowDone = false;
      const chaos = (async () => {
        const done: Signal[] = [];
        for (const step of plan) {
          const wait = step.at - (performance.now() - t);
          if (wait > 0) await sleep(wait);
          if (flowDone) break;
          await restart(redis, step.signal, step.downMs);
          done.push(step.signal);
        }
        return done;
      })();
      let failure: unknown;
      try {
        await runFlow(flows, kind);
      } catch (error) {
        failure = error;
      }
      const ids = [...flows.current];
      flowDone = true;
      const restarts = await chaos;
      const record: FlowRecord = {
        kind,
        runIds: ids,
        restarts,
        refused: flows.refused - refusedBefore,
        ms: performance.now() - t,
      };
      records.push(record);
      if (failure !== undefined) record.failure = (failure as Error).message;
      say(
        `flow ${i + 1}/${options.runs} ${kind}: ${ids.join(', ')}${record.failure === undefined ? '' : ` (${record.failure})`} · restarts ${restarts.join(', ') || 'none'} · refused ${record.refused} · ${Math.round(record.ms)} ms`,
      );
    }

    // What Slack shows and what Redis holds, once everything has ended.
    const lostRuns: string[] = [];
    const lostPosts: string[] = [];
    const duplicatedPosts: string[] = [];
    const outcomes: Record<string, number> = {};
    for (const record of records) {
      // A cutover flow that stopped short of its rollback lost that run too.
      const want = record.kind === 'cutover' ? 2 : 1;
      if (record.runIds.length < want) {
        lostRuns.push(
          `${record.kind} flow: ${record.runIds.length} of ${want} runs (${record.failure ?? '?'})`,
        );
      }
      for (const id of record.runIds) {
        const state = await h.bot.runs.get(id);
        const outcome = state?.phase === 'done' ? (state.outcome ?? 'none') : 'not ended';
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        if (outcome !== expectedOutcome[record.kind]) {
          lostRuns.push(`${id}: ${outcome}${await diagnose(h, id, state)}`);
        }
      }
      if (record.failure !== undefined) continue;
      const posts = baseline.get(record.kind)?.posts ?? [];
      const got = postsOf(h, record.runIds);
      const label = record.runIds[0] ?? '?';
      lostPosts.push(...minus(posts, got).map((p) => `${label}: ${p}`));
      // A post beyond the baseline that repeats one already in the thread is a duplicate.
      for (const extra of minus(got, posts)) {
        if (got.filter((p) => p === extra).length > 1) duplicatedPosts.push(`${label}: ${extra}`);
      }
    }
    const asked = new Set([...baselineIds, ...records.flatMap((r) => r.runIds)]);
    const stored = await h.bot.runs.store.list({ cluster: 'cluster-a', limit: 1_000 });
    const duplicatedRuns = stored.filter((r) => !asked.has(r.id)).map((r) => `${r.id} (${r.kind})`);

    const restarts: Record<Signal, number> = { SIGTERM: 0, SIGKILL: 0 };
    for (const s of records.flatMap((r) => r.restarts)) restarts[s] += 1;
    const result: RedisSuiteResult = {
      flows: records,
      runs: records.reduce((n, r) => n + r.runIds.length, 0),
      restarts,
      refusedWhileDown: flows.refused,
      lostRuns,
      duplicatedRuns,
      lostPosts,
      duplicatedPosts,
      outcomes,
      wallMs: 0,
    };
    if (options.withoutPersistence) {
      result.withoutPersistence = await withoutPersistence(
        baseline.get('preflight')?.posts ?? [],
        baseline.get('preflight')?.ms ?? 5_000,
        random,
      );
    }
    result.wallMs = performance.now() - started;
    return result;
  } finally {
    await h.stop().catch(() => undefined);
    if (options.logFile !== undefined) await writeFile(options.logFile, h.log.text());
    await redis.close();
  }
}

/**
 * One pre-flight on a Redis without persistence, restarted mid-run: informational, it shows
 * what the README's persistence requirement protects.
 */
async function withoutPersistence(
  want: readonly string[],
  expectedMs: number,
  random: () => number,
): Promise<NoPersistenceResult> {
  const redis = await startPrivateRedis({ persistence: 'none' });
  const h = await startHarness({ redisUrl: redis.url });
  try {
    const flows = new Flows(h);
    const runId = await flows.command('preflight cluster-a', /run (pf-[a-z0-9-]+)/);
    const signal: Signal = random() < 0.5 ? 'SIGTERM' : 'SIGKILL';
    await sleep(Math.min(expectedMs / 3, 1_000));
    await restart(redis, signal, 300);
    let state: RunState | undefined;
    let ended = false;
    try {
      state = await until('the run to end', Math.min(RUN_DEADLINE_MS, 20_000), async () => {
        const s = await flows.get(runId);
        return s?.phase === 'done' ? s : undefined;
      });
      ended = true;
    } catch {
      state = await flows.get(runId).catch(() => undefined);
    }
    const got = postsOf(h, [runId]);
    const card = flows.card(runId);
    const latest = card === undefined ? undefined : h.fake.findMessage(card.channel, card.ts);
    return {
      runId,
      signal,
      stateLost: state === undefined,
      ended,
      cardFinal: latest !== undefined && want[0] === `card: ${normalizePost(latest.text)}`,
      missingPosts: minus(want, got).length,
      expectedPosts: want.length,
    };
  } finally {
    await h.stop().catch(() => undefined);
    await redis.close();
  }
}

/** The figures, side by side with the goal. */
export function formatRedisSuite(r: RedisSuiteResult, options: RedisSuiteOptions): string {
  const row = (name: string, value: string | number, goal: string) =>
    `${name.padEnd(28)} ${String(value).padStart(8)}   ${goal}`;
  const lines = [
    `redis suite · seed ${options.seed} · appendonly yes, appendfsync ${options.fsync} · ${Math.round(r.wallMs / 1000)} s`,
    `${'figure'.padEnd(28)} ${'value'.padStart(8)}   goal`,
    row('flows', r.flows.length, `${options.runs}`),
    row('runs', r.runs, '-'),
    row('redis restarts (SIGTERM)', r.restarts.SIGTERM, '-'),
    row('redis restarts (SIGKILL)', r.restarts.SIGKILL, '-'),
    row(
      'requests refused while down',
      r.refusedWhileDown,
      'answered QUEUE_UNAVAILABLE, sent again',
    ),
    row('lost runs', r.lostRuns.length, '0'),
    row('duplicated runs', r.duplicatedRuns.length, '0'),
    row('lost posts', r.lostPosts.length, '0'),
    row('duplicated posts', r.duplicatedPosts.length, '0'),
    `outcomes: ${Object.entries(r.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    ...r.lostRuns.map((x) => `  lost run: ${x}`),
    ...r.duplicatedRuns.map((x) => `  duplicated run: ${x}`),
    ...r.lostPosts.map((x) => `  lost post: ${x}`),
    ...r.duplicatedPosts.map((x) => `  duplicated post: ${x}`),
  ];
  const np = r.withoutPersistence;
  if (np !== undefined) {
    lines.push(
      `without persistence (informational, not a failure): pre-flight ${np.runId}, Redis ${np.signal} mid-run:` +
        ` run state ${np.stateLost ? 'lost' : 'kept'}, run ${np.ended ? 'ended' : 'never ended'},` +
        ` card ${np.cardFinal ? 'final' : 'stuck'}, ${np.missingPosts} of ${np.expectedPosts} posts missing`,
    );
  }
  return lines.join('\n');
}

export function violations(r: RedisSuiteResult): number {
  return (
    r.lostRuns.length + r.duplicatedRuns.length + r.lostPosts.length + r.duplicatedPosts.length
  );
}
