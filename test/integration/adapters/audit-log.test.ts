// The audit trail in a real Redis stream: idempotent by key, filtered by cluster and node, and
// trimmed by time (not by count).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisAuditLog } from '../../../src/adapters/audit/redis.js';
import type { AuditEntry } from '../../../src/core/audit.js';
import { REDIS_URL, dropPrefix, uniquePrefix } from '../../helpers/redis.js';

const entry = (key: string, cluster = 'cluster-a', node = 'blue-1'): AuditEntry => ({
  key,
  at: new Date().toISOString(),
  kind: 'requested',
  runId: key.split('/')[0] ?? key,
  runKind: 'cutover',
  cluster,
  node,
  detail: `entry ${key}`,
});

describe('RedisAuditLog', () => {
  let redis: Redis;
  const prefix = uniquePrefix('audit');

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis.disconnect();
    await dropPrefix(prefix);
  });

  it('records each key once and answers newest first, by cluster and node', async () => {
    const log = new RedisAuditLog(redis, prefix, 60_000);
    expect(
      await log.append([entry('r1/requested'), entry('r2/requested', 'cluster-a', 'blue-2')]),
    ).toBe(2);
    expect(await log.append([entry('r1/requested'), entry('r3/requested', 'cluster-b')])).toBe(1);
    const a = await log.query({ cluster: 'cluster-a', sinceMs: 0, limit: 10 });
    expect(a.map((e) => e.key)).toEqual(['r2/requested', 'r1/requested']);
    const blue1 = await log.query({ cluster: 'cluster-a', node: 'blue-1', sinceMs: 0, limit: 10 });
    expect(blue1.map((e) => e.key)).toEqual(['r1/requested']);
    expect((await log.query({ cluster: 'cluster-a', sinceMs: 0, limit: 1 })).length).toBe(1);
  });

  it('trims by time: entries older than the retention are gone after the next append', async () => {
    const short = `${prefix}-short`;
    const log = new RedisAuditLog(redis, short, 200);
    await log.append([entry('old/requested')]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await log.append([entry('new/requested')]);
    const left = await log.query({ cluster: 'cluster-a', sinceMs: 0, limit: 10 });
    expect(left.map((e) => e.key)).toEqual(['new/requested']);
    // The seen marker expires with the retention too, so nothing outlives it.
    expect(await redis.pttl(`${short}:audit:seen:new/requested`)).toBeLessThanOrEqual(200);
    await dropPrefix(short);
  });
});
