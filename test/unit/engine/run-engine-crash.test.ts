// What the engine does with the traces of a killed process: a job handed back by BullMQ (its
// worker died) finds its step `running` under an owner that is gone and resumes the run in a
// new job instead of leaving it stuck; a run that ended before its lock was released and anyone
// was told is released and announced by the next process, once.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../../src/adapters/run-store/memory.js';
import type { RunState } from '../../../src/core/run-state.js';
import type { Runbook, RunKind } from '../../../src/core/runbook.js';
import type { RunObserver } from '../../../src/engine/observer.js';
import type { RunEnvironment, RunResources } from '../../../src/engine/run-environment.js';
import { RunEngine, executorKey, type StepScheduler } from '../../../src/engine/run-engine.js';
import type { StepExecutor } from '../../../src/engine/step-context.js';
import { systemClock } from '../../../src/ports/clock.js';
import { captureLog } from '../../helpers/log-capture.js';

const runbook: Runbook = {
  kind: 'preflight',
  title: 'Test',
  mutates: false,
  backoffMs: 1_000,
  steps: [{ id: 'only', kind: 'report', uses: 'only', title: 'only step' }],
  rollback: [],
};

/** An owner on this host whose process is gone (no such pid). */
const DEAD_OWNER = `${hostname()}#deadbeef:2147483646`;

function setUp() {
  const store = new MemoryRunStore();
  const executed: { stepId: string; version: number }[] = [];
  const scheduler: StepScheduler = {
    execute: (_runId, stepId, version) => {
      executed.push({ stepId, version });
      return Promise.resolve();
    },
    signalAt: () => Promise.resolve(),
  };
  let ran = 0;
  const executor: StepExecutor = () => {
    ran += 1;
    return Promise.resolve({ ok: true });
  };
  const finished: string[] = [];
  const released: string[] = [];
  const observer: RunObserver = {
    changed: () => Promise.resolve(),
    approvalRequested: () => Promise.resolve(),
    finished: (state) => {
      finished.push(state.id);
      return Promise.resolve();
    },
  };
  const environment: RunEnvironment = {
    forRun: () =>
      Promise.resolve({
        beforeStep: () => Promise.resolve(),
        assertLockHeld: () => Promise.resolve(),
      } as unknown as RunResources),
    release: (state) => {
      released.push(state.id);
      return Promise.resolve();
    },
    pause: () => Promise.resolve(),
    close: () => Promise.resolve(),
    collect: () => Promise.resolve(),
  };
  const engine = new RunEngine({
    store,
    scheduler,
    runbooks: { preflight: runbook } as unknown as Record<RunKind, Runbook>,
    executors: new Map([[executorKey('report', 'only'), executor]]),
    environment,
    observers: [observer],
    clock: systemClock,
    logger: captureLog().logger,
    owner: `${hostname()}#live:${process.pid}`,
  });
  return { store, engine, executed, finished, released, ran: () => ran };
}

async function startedThenKilled(s: ReturnType<typeof setUp>): Promise<RunState> {
  const run = await s.engine.start({
    id: 'pf-1',
    kind: 'preflight',
    cluster: 'c',
    requester: { kind: 'terminal', user: 'test' },
    options: { autoRollback: true, dryRun: false, approvalTtlMs: 60_000 },
  });
  // The killed process had started the step and was beating for it.
  const saved = await s.store.save({
    ...run,
    steps: run.steps.map((step) =>
      step.id === 'only' ? { ...step, status: 'running', attempts: 1 } : step,
    ),
  });
  await s.store.beat(run.id, DEAD_OWNER, 15_000);
  return saved;
}

describe('the engine after a kill -9', () => {
  it('resumes a run whose job came back with its step still running under a dead owner', async () => {
    const s = setUp();
    const killed = await startedThenKilled(s);
    s.executed.length = 0;
    await s.engine.advance(killed.id, 'only');
    const resumed = await s.store.get(killed.id);
    expect(resumed?.history.at(-1)).toMatchObject({ event: 'resumed' });
    expect(resumed?.steps.find((x) => x.id === 'only')?.status).toBe('pending');
    // The step runs again in a job of its own (a new version), not in the handed-back one.
    expect(s.executed).toEqual([{ stepId: 'only', version: resumed?.version }]);
    expect(s.ran()).toBe(0);
    await s.engine.advance(killed.id, 'only');
    expect(s.ran()).toBe(1);
    expect((await s.store.get(killed.id))?.outcome).toBe('verified');
  });

  it('leaves a running step alone while its owner is alive', async () => {
    const s = setUp();
    const killed = await startedThenKilled(s);
    await s.store.beat(killed.id, `${hostname()}#other:${process.ppid}`, 15_000);
    await s.engine.advance(killed.id, 'only');
    expect((await s.store.get(killed.id))?.version).toBe(killed.version);
  });

  it('announces, once, a run that ended while its process died', async () => {
    const s = setUp();
    const killed = await startedThenKilled(s);
    // Saved as ended, never announced (the process died before telling anyone).
    const ended = await s.store.save({ ...killed, phase: 'done', outcome: 'verified' });
    // Ended a moment ago: a live process may be announcing it; it is left for now.
    await s.engine.resume('restart', () => true, { announce: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.finished).toEqual([]);
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    await s.store.save({ ...(await s.store.get(ended.id))!, updatedAt: minuteAgo });
    await s.engine.resume('restart', () => true, { announce: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.finished).toEqual([ended.id]);
    // The lock and probe pods go too, or the next run would find the cluster still locked.
    expect(s.released).toEqual([ended.id]);
    expect((await s.store.get(ended.id))?.facts['announced']).toBe(true);
    await s.engine.resume('restart', () => true, { announce: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.finished).toEqual([ended.id]);
  });
});
