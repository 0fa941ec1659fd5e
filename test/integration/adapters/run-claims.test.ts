// One run per identical request, for any number of racing requests: the claim holds while its
// run has not ended, or briefly while the run is being created, and lapses with the run. Redis
// is the real one (shared by every replica); memory is the in-process executor's.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRunClaims } from '../../../src/adapters/run-store/memory-claims.js';
import { MemoryRunStore } from '../../../src/adapters/run-store/memory.js';
import { RedisRunClaims } from '../../../src/adapters/run-store/redis-claims.js';
import { RedisRunStore } from '../../../src/adapters/run-store/redis.js';
import type { RunState } from '../../../src/core/run-state.js';
import { CLAIM_CREATE_GRACE_MS, type RunClaims } from '../../../src/ports/run-claims.js';
import type { RunStore } from '../../../src/ports/run-store.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../../helpers/redis.js';

function run(id: string): RunState {
  return {
    id,
    kind: 'preflight',
    cluster: 'cluster-a',
    requester: { kind: 'terminal', user: 'ops' },
    options: { autoRollback: false, dryRun: false },
    phase: 'running',
    track: 'forward',
    stepIndex: 0,
    steps: [],
    approvals: [],
    journal: [],
    evidence: [],
    facts: {},
    createdAt: '2026-12-01T10:00:00.000Z',
    updatedAt: '2026-12-01T10:00:00.000Z',
    history: [],
    version: 0,
  };
}

const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const prefix = uniquePrefix('claims');
afterAll(async () => {
  await dropPrefix(prefix);
  redis.disconnect();
});

interface Pair {
  store: RunStore;
  claims: RunClaims;
  /** Moves the claims' clock on. */
  later(ms: number): void;
}

const pairs: [string, () => Pair][] = [
  [
    'redis',
    () => {
      const own = `${prefix}-${Math.random().toString(36).slice(2)}`;
      let offset = 0;
      return {
        store: new RedisRunStore(redis, own),
        claims: new RedisRunClaims(redis, own, () => Date.now() + offset),
        later: (ms) => (offset += ms),
      };
    },
  ],
  [
    'memory',
    () => {
      const store = new MemoryRunStore();
      let offset = 0;
      return {
        store,
        claims: new MemoryRunClaims(store, () => Date.now() + offset),
        later: (ms) => (offset += ms),
      };
    },
  ],
];

describe.each(pairs)('%s run claims', (_name, make) => {
  it('lets exactly one of a hundred racing requests start its run', async () => {
    const { claims } = make();
    const ids = Array.from({ length: 100 }, (_, i) => `pf-race-${i}`);
    const held = await Promise.all(ids.map((id) => claims.claim('preflight.cluster-a.k', id)));
    const winners = ids.filter((_, i) => held[i] === undefined);
    expect(winners).toHaveLength(1);
    // Every loser is told the winner's run, not another loser's.
    expect(new Set(held.filter((h) => h !== undefined))).toEqual(new Set(winners));
  });

  it('holds while the run has not ended and lapses when it ends', async () => {
    const { store, claims } = make();
    expect(await claims.claim('k', 'pf-1')).toBeUndefined();
    const created = await store.create(run('pf-1'));
    expect(await claims.claim('k', 'pf-2')).toBe('pf-1');
    await store.save({ ...created, phase: 'awaiting-approval' });
    expect(await claims.claim('k', 'pf-3')).toBe('pf-1');
    const waiting = (await store.get('pf-1'))!;
    await store.save({ ...waiting, phase: 'done', outcome: 'verified' });
    expect(await claims.claim('k', 'pf-4')).toBeUndefined();
    expect(await claims.claim('k', 'pf-5')).toBe('pf-4');
    // Other requests are not held by it.
    expect(await claims.claim('other', 'pf-6')).toBeUndefined();
  });

  it('holds a run being created for the grace period only, and gives up when released', async () => {
    const { claims, later } = make();
    expect(await claims.claim('k', 'pf-1')).toBeUndefined();
    later(CLAIM_CREATE_GRACE_MS - 1_000);
    expect(await claims.claim('k', 'pf-2')).toBe('pf-1');
    // The process that claimed died before creating its run: the next request takes over.
    later(2_000);
    expect(await claims.claim('k', 'pf-3')).toBeUndefined();
    // A run that could not be created gives the claim up; releasing another's does nothing.
    await claims.release('k', 'pf-1');
    expect(await claims.claim('k', 'pf-4')).toBe('pf-3');
    await claims.release('k', 'pf-3');
    expect(await claims.claim('k', 'pf-5')).toBeUndefined();
  });
});
