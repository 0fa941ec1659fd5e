/**
 * Run states in Redis (keys under `<prefix>:store:`): one hash per run (`version`, `data`), an
 * index of runs by creation time
 * and per cluster, and the set of runs still active. Saves are compare-and-set on the version in
 * one Lua script, so a stale writer (a worker that lost track after a stall) can never overwrite
 * a newer state. With AOF persistence (README) a Redis restart loses nothing.
 */
import type { Redis } from 'ioredis';
import type { RunState } from '../../core/run-state.js';
import { AppError } from '../../errors.js';
import { StaleRunError, type RunQuery, type RunStore } from '../../ports/run-store.js';

const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'data', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
if ARGV[5] == '1' then redis.call('SADD', KEYS[4], ARGV[4]) end
return 1`;

const SAVE = `
local v = redis.call('HGET', KEYS[1], 'version')
if not v then return -1 end
if v ~= ARGV[1] then return tonumber(v) end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'data', ARGV[3])
if ARGV[5] == '1' then redis.call('SADD', KEYS[2], ARGV[4]) else redis.call('SREM', KEYS[2], ARGV[4]) end
return -2`;

/** The keys of one run and of the set of active runs, under `<prefix>:store:`. */
export const runKey = (prefix: string, id: string): string => `${prefix}:store:run:${id}`;
export const activeRunsKey = (prefix: string): string => `${prefix}:store:active`;

export function unavailable(cause: unknown): AppError {
  return new AppError('RUN_STORE_UNAVAILABLE', 'Run state could not be read or saved in Redis.', {
    remedy: 'Check Redis (REDIS_URL) and the bot’s /readyz; the run resumes when Redis answers.',
    retryable: true,
    cause,
  });
}

export class RedisRunStore implements RunStore {
  readonly description: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.description = `Redis (prefix ${prefix})`;
  }

  // Under `<prefix>:store:`, apart from BullMQ's `<prefix>:runs:*` queue keys.
  private key(id: string): string {
    return runKey(this.prefix, id);
  }

  private get index(): string {
    return `${this.prefix}:store:index`;
  }

  private clusterIndex(cluster: string): string {
    return `${this.prefix}:store:cluster:${cluster}`;
  }

  private get activeSet(): string {
    return activeRunsKey(this.prefix);
  }

  async create(state: RunState): Promise<RunState> {
    const saved = { ...state, version: 1 };
    let created: unknown;
    try {
      created = await this.redis.eval(
        CREATE,
        4,
        this.key(state.id),
        this.index,
        this.clusterIndex(state.cluster),
        this.activeSet,
        '1',
        JSON.stringify(saved),
        String(Date.parse(state.createdAt)),
        state.id,
        state.phase === 'done' ? '0' : '1',
      );
    } catch (error) {
      throw unavailable(error);
    }
    if (created !== 1) throw new Error(`run ${state.id} exists already`);
    return saved;
  }

  async get(id: string): Promise<RunState | undefined> {
    let data: string | null;
    try {
      data = await this.redis.hget(this.key(id), 'data');
    } catch (error) {
      throw unavailable(error);
    }
    return data === null ? undefined : (JSON.parse(data) as RunState);
  }

  async save(state: RunState): Promise<RunState> {
    const saved = { ...state, version: state.version + 1 };
    let answer: unknown;
    try {
      answer = await this.redis.eval(
        SAVE,
        2,
        this.key(state.id),
        this.activeSet,
        String(state.version),
        String(saved.version),
        JSON.stringify(saved),
        state.id,
        state.phase === 'done' ? '0' : '1',
      );
    } catch (error) {
      throw unavailable(error);
    }
    if (answer !== -2) {
      throw new StaleRunError(state.id, state.version, answer === -1 ? undefined : Number(answer));
    }
    return saved;
  }

  async list(query: RunQuery = {}): Promise<RunState[]> {
    const limit = query.limit ?? 50;
    try {
      let ids: string[];
      if (query.active === true) {
        ids = await this.redis.smembers(this.activeSet);
      } else {
        const index = query.cluster === undefined ? this.index : this.clusterIndex(query.cluster);
        // Read more than asked when filtering by node: the index is per cluster, not per node.
        const span = query.node === undefined ? limit : limit * 20;
        ids = await this.redis.zrevrange(index, 0, span - 1);
      }
      if (ids.length === 0) return [];
      const pipeline = this.redis.pipeline();
      for (const id of ids) pipeline.hget(this.key(id), 'data');
      const rows = (await pipeline.exec()) ?? [];
      const states = rows
        .map(([, data]) => (typeof data === 'string' ? (JSON.parse(data) as RunState) : undefined))
        .filter((s): s is RunState => s !== undefined)
        .filter((s) => query.cluster === undefined || s.cluster === query.cluster)
        .filter((s) => query.node === undefined || s.node === query.node)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return states.slice(0, limit);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async beat(id: string, owner: string, ttlMs: number): Promise<void> {
    try {
      await this.redis.set(`${this.key(id)}:owner`, owner, 'PX', ttlMs);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async owner(id: string): Promise<string | undefined> {
    try {
      return (await this.redis.get(`${this.key(id)}:owner`)) ?? undefined;
    } catch (error) {
      throw unavailable(error);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
