/**
 * One phase of a crash case (a cutover or its rollback), driven as people would drive it in
 * Slack (the slash command, then Approve; or Rollback on the result), while a killer kill -9s
 * the bot at the case's points and starts it again. Resolves to how the run ended.
 */
import type { RunState } from '../../src/core/run-state.js';
import { ACTION } from '../../src/interactions/ids.js';
import type { FakeMessage } from '../../test/fakes/fake-slack.js';
import { describeKill, type Kill } from './cases.js';
import { APPROVER, CLUSTER, REQUESTER, type World } from './world.js';

const RUN_DEADLINE_MS = 180_000;
const POLL_MS = 20;
/** A request whose run has not appeared by then is sent again. */
const RESEND_MS = 10_000;
/** How long a run's result may take to be posted after the run is saved as ended. */
const RESULT_MS = 60_000;

export interface KillRecord {
  /** kill -9 to the new process answering /readyz (the process start, not the product's). */
  restartMs?: number;
  /** From the new process being ready to the run moving again (a new saved version). */
  resumedAfterMs?: number;
  /** The kill point was never reached (the run ended first, or took another track). */
  missed?: boolean;
}

export interface PhaseResult {
  run: RunState | undefined;
  /** The run had not ended by the deadline. */
  stuck: boolean;
  kills: KillRecord[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function stepDone(state: RunState | undefined, step: string): boolean {
  return (
    state?.steps.some((s) => s.id === step && s.track === 'forward' && s.status === 'done') ?? false
  );
}

/** Kills the bot at each point, in order, restarting it after each; measures the resumption. */
async function killer(
  world: World,
  kills: readonly Kill[],
  runId: () => string | undefined,
  ended: () => boolean,
): Promise<KillRecord[]> {
  const records: KillRecord[] = [];
  let from = Date.now();
  for (const kill of kills) {
    for (;;) {
      if (ended()) break;
      const id = runId();
      const state = id === undefined ? undefined : await world.run(id);
      if ('after' in kill ? stepDone(state, kill.after) : Date.now() - from >= kill.atMs) break;
      await sleep(POLL_MS / 2);
    }
    const id = runId();
    if (ended() && 'after' in kill) {
      records.push({ missed: true });
      continue;
    }
    const before = id === undefined ? undefined : await world.run(id);
    if (process.env['CRASH_SUITE_DEBUG'] !== undefined)
      console.error('killing', describeKill(kill));
    await world.bot.kill();
    const killedAt = Date.now();
    await world.bot.start();
    from = Date.now();
    const record: KillRecord = { restartMs: from - killedAt };
    // Resumption is measured only for a run that was moving (not waiting for a click, not over).
    if (id !== undefined && (before?.phase === 'running' || before?.phase === 'rolling-back')) {
      for (;;) {
        const now = await world.run(id);
        if ((now?.version ?? 0) > (before.version ?? 0)) {
          record.resumedAfterMs = Date.now() - from;
          break;
        }
        if (Date.now() - from > RUN_DEADLINE_MS) break;
        await sleep(POLL_MS);
      }
    }
    records.push(record);
  }
  return records;
}

/** Sends `request` until the bot takes it (it may be down, or killed while answering). */
async function deliver(world: World, request: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    while (!world.bot.up) await sleep(POLL_MS);
    try {
      await request();
      return;
    } catch (error) {
      if (attempt > 50) throw error;
      await sleep(200);
    }
  }
}

function findMessage(world: World, threadTs: string, action: string): FakeMessage | undefined {
  return world.fake.messages.find(
    (m) => m.thread_ts === threadTs && JSON.stringify(m.blocks).includes(action),
  );
}

interface Drive {
  /** Starts the run; resolves to its id once it is in the store. */
  begin(): Promise<string>;
  /** Called while the run is in flight: clicks what a person would click. */
  tend?(state: RunState): Promise<void>;
}

async function phase(world: World, drive: Drive, kills: readonly Kill[]): Promise<PhaseResult> {
  const current: { id?: string; done: boolean } = { done: false };
  const killing = killer(
    world,
    kills,
    () => current.id,
    () => current.done,
  );
  const id = await drive.begin();
  current.id = id;
  const deadline = Date.now() + RUN_DEADLINE_MS;
  let run: RunState | undefined;
  for (;;) {
    run = await world.run(id);
    if (run?.phase === 'done') break;
    if (Date.now() > deadline) break;
    if (run !== undefined && world.bot.up) await drive.tend?.(run);
    await sleep(POLL_MS * 2);
  }
  current.done = true;
  const records = await killing;
  return { run: await world.run(id), stuck: run?.phase !== 'done', kills: records };
}

/** The cutover of `node`: `/proxy-migrate cutover`, then Approve by the approver. */
export function cutoverPhase(world: World, node: string, kills: readonly Kill[]) {
  // A click the bot acked but was killed before saving is lost, as in Slack (an acked request is
  // not retried): the person sees the buttons still there and clicks again, as the suite does.
  let clickedAt = 0;
  const startedAt = new Date().toISOString();
  return phase(
    world,
    {
      begin: async () => {
        // A bot killed after its ack but before the run was saved started nothing: the person
        // sees no card and asks again, as the suite does.
        for (;;) {
          await deliver(world, () => world.command(`cutover ${CLUSTER} ${node}`));
          const asked = Date.now();
          while (Date.now() - asked < RESEND_MS) {
            const [run] = (await world.store.list({ cluster: CLUSTER, node, limit: 5 })).filter(
              (r) => r.kind === 'cutover' && r.createdAt >= startedAt,
            );
            if (run !== undefined) return run.id;
            await sleep(POLL_MS);
          }
        }
      },
      tend: async (state) => {
        if (state.phase !== 'awaiting-approval' || Date.now() - clickedAt < RESEND_MS) return;
        const cardTs = state.facts['cardTs'];
        const card =
          typeof cardTs === 'string' ? findMessage(world, cardTs, ACTION.approve) : undefined;
        if (card === undefined) return;
        await world.click(ACTION.approve, card, APPROVER).then(
          () => (clickedAt = Date.now()),
          () => undefined,
        );
      },
    },
    kills,
  );
}

/** The rollback of a verified cutover: Rollback on its result, by the requester. */
export function rollbackPhase(
  world: World,
  cutover: RunState,
  kills: readonly Kill[],
): Promise<PhaseResult> {
  return phase(
    world,
    {
      begin: async () => {
        // The result is posted just after the run is saved as ended.
        const waitUntil = Date.now() + RESULT_MS;
        let result: FakeMessage | undefined;
        while (result === undefined) {
          const run = await world.run(cutover.id);
          const resultTs = run?.facts['resultTs'];
          const channel = run?.options.channel;
          if (typeof resultTs === 'string' && channel !== undefined)
            result = world.fake.findMessage(channel, resultTs);
          if (result === undefined && Date.now() > waitUntil)
            throw new Error(`no result with a Rollback button for ${cutover.id}`);
          await sleep(POLL_MS);
        }
        for (;;) {
          await deliver(world, () => world.click(ACTION.rollback, result, REQUESTER));
          const asked = Date.now();
          while (Date.now() - asked < RESEND_MS) {
            const id = (await world.run(cutover.id))?.facts['rollbackRun'];
            if (typeof id === 'string' && (await world.run(id)) !== undefined) return id;
            await sleep(POLL_MS);
          }
        }
      },
    },
    kills,
  );
}
