// Many writers of one run at once, as when a crowd clicks one approval card and every refused
// click is recorded on the run: each must land, none may run out of save attempts.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../../src/adapters/run-store/memory.js';
import { RunEngine, staleBackoffMs } from '../../../src/engine/run-engine.js';
import type { RunEnvironment } from '../../../src/engine/run-environment.js';
import { executors } from '../../../src/engine/steps/index.js';
import { createLogger } from '../../../src/log.js';
import { systemClock } from '../../../src/ports/clock.js';
import { runbooks } from '../../../src/runbooks/index.js';

/** Holds nothing: these runs never execute a step (the scheduler drops every request). */
const environment: RunEnvironment = {
  forRun: () => Promise.reject(new Error('no step runs in this test')),
  release: () => Promise.resolve(),
  pause: () => Promise.resolve(),
  collect: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

describe('RunEngine under racing writers', () => {
  // Found by the bad-input suite: 16 refused clicks in flight on one card lost one refusal in
  // ~300 (eight retries in lockstep, no pause), so the audit trail missed it.
  it('records every one of 40 concurrent refused clicks on the run', async () => {
    const store = new MemoryRunStore();
    const engine = new RunEngine({
      store,
      scheduler: { execute: () => Promise.resolve(), signalAt: () => Promise.resolve() },
      runbooks,
      executors,
      environment,
      observers: [],
      clock: systemClock,
      logger: createLogger({ level: 'error' }),
      owner: 'test:1',
    });
    const run = await engine.start({
      id: 'co-race-1',
      kind: 'cutover',
      cluster: 'cluster-a',
      node: 'blue-1',
      requester: { kind: 'slack', userId: 'U0ALICE', teamId: 'T0A' },
      options: { autoRollback: false, dryRun: false, channel: 'C0OPS' },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        engine.signal(run.id, {
          type: 'recorded',
          at: new Date().toISOString(),
          facts: {},
          note: { event: 'approve-refused', note: `U0X${i}@T0A: not an approver` },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const saved = await store.get(run.id);
    expect(saved?.history.filter((h) => h.event === 'approve-refused')).toHaveLength(40);
  });

  it('spreads retries: a random pause up to a doubling step, capped', () => {
    expect(staleBackoffMs(0, () => 0.999)).toBe(4);
    expect(staleBackoffMs(3, () => 0.5)).toBe(20);
    expect(staleBackoffMs(20, () => 0.999)).toBe(99);
    expect(staleBackoffMs(5, () => 0)).toBe(0);
  });
});
