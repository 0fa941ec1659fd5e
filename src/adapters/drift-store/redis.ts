/**
 * The drift guard's state in Redis, under `<prefix>:drift:`: `record:<cluster>` (the drift set
 * last posted), `id:<drift id>` (what a repair button needs) and `lock:<cluster>` (one check at
 * a time). Every key has a TTL; the guard deletes them when the drift clears.
 */
import type { Redis } from 'ioredis';
import type { DriftRecord } from '../../core/drift.js';
import { AppError } from '../../errors.js';
import type { DriftStore, StoredDrift } from '../../ports/drift-store.js';

function unavailable(cause: unknown): AppError {
  return new AppError('RUN_STORE_UNAVAILABLE', 'Drift guard state could not be read or saved.', {
    remedy: 'Check Redis (REDIS_URL) and the bot’s /readyz; the next check tries again.',
    retryable: true,
    cause,
  });
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw unavailable(error);
  }
}

function parse<T>(text: string | null): T | undefined {
  return text === null ? undefined : (JSON.parse(text) as T);
}

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class RedisDriftStore implements DriftStore {
  private readonly token = `${process.pid}.${Math.random().toString(36).slice(2)}`;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(kind: 'record' | 'id' | 'lock', name: string): string {
    return `${this.prefix}:drift:${kind}:${name}`;
  }

  record(cluster: string): Promise<DriftRecord | undefined> {
    return guarded(async () =>
      parse<DriftRecord>(await this.redis.get(this.key('record', cluster))),
    );
  }

  saveRecord(cluster: string, record: DriftRecord | undefined, ttlMs: number): Promise<void> {
    const key = this.key('record', cluster);
    return guarded(async () => {
      if (record === undefined) await this.redis.del(key);
      else await this.redis.set(key, JSON.stringify(record), 'PX', ttlMs);
    });
  }

  saveDrifts(drifts: readonly StoredDrift[], ttlMs: number): Promise<void> {
    if (drifts.length === 0) return Promise.resolve();
    return guarded(async () => {
      const multi = this.redis.multi();
      for (const d of drifts) multi.set(this.key('id', d.id), JSON.stringify(d), 'PX', ttlMs);
      await multi.exec();
    });
  }

  drift(id: string): Promise<StoredDrift | undefined> {
    return guarded(async () => parse<StoredDrift>(await this.redis.get(this.key('id', id))));
  }

  touchDrifts(ids: readonly string[], ttlMs: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return guarded(async () => {
      const multi = this.redis.multi();
      for (const id of ids) multi.pexpire(this.key('id', id), ttlMs);
      await multi.exec();
    });
  }

  deleteDrifts(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return guarded(async () => {
      await this.redis.del(...ids.map((id) => this.key('id', id)));
    });
  }

  tryLock(cluster: string, ttlMs: number): Promise<boolean> {
    return guarded(
      async () =>
        (await this.redis.set(this.key('lock', cluster), this.token, 'PX', ttlMs, 'NX')) === 'OK',
    );
  }

  unlock(cluster: string): Promise<void> {
    return guarded(async () => {
      await this.redis.eval(UNLOCK, 1, this.key('lock', cluster), this.token);
    });
  }
}
