// Every RunStore keeps the same contract: versioned compare-and-set saves (a stale writer loses),
// listing by cluster, node and activity. Redis is the real one; files are the terminal's fallback.
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRunStore } from '../../../src/adapters/run-store/file.js';
import { MemoryRunStore } from '../../../src/adapters/run-store/memory.js';
import { RedisRunStore } from '../../../src/adapters/run-store/redis.js';
import type { RunState } from '../../../src/core/run-state.js';
import { StaleRunError, type RunStore } from '../../../src/ports/run-store.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from '../../helpers/redis.js';

function run(id: string, over: Partial<RunState> = {}): RunState {
  return {
    id,
    kind: 'cutover',
    cluster: 'cluster-a',
    node: 'blue-1',
    requester: { kind: 'terminal', user: 'ops' },
    options: { autoRollback: true, dryRun: false },
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
    ...over,
  };
}

const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const prefix = uniquePrefix('runstore');
let dir: string;

const stores: [string, () => RunStore][] = [
  ['redis', () => new RedisRunStore(redis, `${prefix}-${Math.random().toString(36).slice(2)}`)],
  ['files', () => new FileRunStore(join(dir, Math.random().toString(36).slice(2)))],
  ['memory', () => new MemoryRunStore()],
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-runs-'));
});
afterAll(async () => {
  await dropPrefix(prefix);
  redis.disconnect();
  await rm(dir, { recursive: true, force: true });
});

describe.each(stores)('%s run store', (_name, make) => {
  it('creates at version 1 and refuses a second create of the same id', async () => {
    const store = make();
    const created = await store.create(run('co-1'));
    expect(created.version).toBe(1);
    expect(await store.get('co-1')).toEqual(created);
    await expect(store.create(run('co-1'))).rejects.toThrow(/exists already/);
    expect(await store.get('co-none')).toBeUndefined();
  });

  it('saves compare-and-set: of two writers holding the same version, exactly one wins', async () => {
    const store = make();
    const v1 = await store.create(run('co-2'));
    const results = await Promise.allSettled([
      store.save({ ...v1, stepIndex: 1 }),
      store.save({ ...v1, stepIndex: 2 }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(StaleRunError);
    const stored = await store.get('co-2');
    expect(stored?.version).toBe(2);
    expect(stored?.stepIndex).toBe((won[0] as PromiseFulfilledResult<RunState>).value.stepIndex);
    await expect(store.save(v1)).rejects.toThrow(
      /saved by another writer \(version 2, expected 1\)/,
    );
  });

  it('lists newest first, by cluster and node, and only active runs when asked', async () => {
    const store = make();
    await store.create(run('co-a', { createdAt: '2026-12-01T10:00:01.000Z' }));
    await store.create(run('co-b', { createdAt: '2026-12-01T10:00:02.000Z', node: 'blue-2' }));
    const c = await store.create(
      run('co-c', { createdAt: '2026-12-01T10:00:03.000Z', cluster: 'cluster-b' }),
    );
    await store.save({ ...c, phase: 'done', outcome: 'verified' });
    expect((await store.list()).map((s) => s.id)).toEqual(['co-c', 'co-b', 'co-a']);
    expect((await store.list({ cluster: 'cluster-a' })).map((s) => s.id)).toEqual(['co-b', 'co-a']);
    expect((await store.list({ cluster: 'cluster-a', node: 'blue-2' })).map((s) => s.id)).toEqual([
      'co-b',
    ]);
    expect((await store.list({ active: true })).map((s) => s.id).sort()).toEqual(['co-a', 'co-b']);
    expect((await store.list({ limit: 1 })).map((s) => s.id)).toEqual(['co-c']);
  });
});

it('refuses ids that are not run ids as file names', async () => {
  const store = new FileRunStore(join(dir, 'ids'));
  await expect(store.get('../../etc/passwd')).rejects.toThrow(/not a run id/);
});

it('takes over an empty lock file a writer killed between creating it and writing its pid', async () => {
  const runs = join(dir, 'empty-lock');
  const store = new FileRunStore(runs);
  const created = await store.create(run('co-lock'));
  const lock = join(runs, 'co-lock.json.lock');
  await writeFile(lock, '');
  const old = new Date(Date.now() - 2_000);
  await utimes(lock, old, old);
  const started = Date.now();
  const saved = await store.save({ ...created, phase: 'done' });
  expect(saved.version).toBe(created.version + 1);
  // At once, not after the 10 s a lock takes to count as stale.
  expect(Date.now() - started).toBeLessThan(5_000);
});
