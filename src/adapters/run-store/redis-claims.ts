/**
 * Run claims in Redis, beside the run store's keys (`<prefix>:store:claim:<key>` holds
 * `<run id>|<claimed at ms>`). One Lua script decides atomically, so of any number of identical
 * requests on any number of replicas exactly one starts a run. A claim holds while its run is in
 * the store's set of active runs, which the store's own saves keep, so it ends with the run even
 * when the process that made it died; before its run exists it holds for
 * {@link CLAIM_CREATE_GRACE_MS}. The key's TTL only collects garbage.
 */
import type { Redis } from 'ioredis';
import { CLAIM_CREATE_GRACE_MS, type RunClaims } from '../../ports/run-claims.js';
import { activeRunsKey, runKey, unavailable } from './redis.js';

const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held then
  local sep = string.find(held, '|', 1, true)
  local id = string.sub(held, 1, sep - 1)
  local at = tonumber(string.sub(held, sep + 1))
  if id ~= ARGV[1] then
    if redis.call('SISMEMBER', KEYS[2], id) == 1 then return id end
    if redis.call('EXISTS', ARGV[3] .. id) == 0 and tonumber(ARGV[2]) - at < tonumber(ARGV[4]) then
      return id
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 'PX', ARGV[5])
return false`;

const RELEASE = `
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. '|' then
  redis.call('DEL', KEYS[1])
end
return 1`;

/** Garbage collection only: no run lives this long (approvals expire in hours at most). */
const CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export class RedisRunClaims implements RunClaims {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  private key(key: string): string {
    return `${this.prefix}:store:claim:${key}`;
  }

  async claim(key: string, runId: string): Promise<string | undefined> {
    let held: unknown;
    try {
      held = await this.redis.eval(
        CLAIM,
        2,
        this.key(key),
        activeRunsKey(this.prefix),
        runId,
        String(this.now()),
        runKey(this.prefix, ''),
        String(CLAIM_CREATE_GRACE_MS),
        String(CLAIM_TTL_MS),
      );
    } catch (error) {
      throw unavailable(error);
    }
    return typeof held === 'string' ? held : undefined;
  }

  async release(key: string, runId: string): Promise<void> {
    try {
      await this.redis.eval(RELEASE, 1, this.key(key), runId);
    } catch (error) {
      throw unavailable(error);
    }
  }
}
