/**
 * Retries a write the engine has already committed to (a job to queue for a saved state, a
 * message ts to keep on a run) while Redis is unreachable, for a bounded time. Without it a Redis
 * restart between a save and its follow-up leaves a saved step with no job to run it, or an
 * approval card posted but unknown to its run, whose buttons are then refused.
 */
import { isAppError } from '../errors.js';

/** The error codes that mean "Redis did not answer", not "Redis said no". */
const UNREACHABLE = new Set(['QUEUE_UNAVAILABLE', 'RUN_STORE_UNAVAILABLE']);

export interface RedisRetryOptions {
  /** Give up (and throw the last error) after this long. */
  deadlineMs: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Redis restarts take seconds; a minute covers a failover without holding a step forever. */
export const REDIS_RETRY: RedisRetryOptions = {
  deadlineMs: 60_000,
  firstDelayMs: 200,
  maxDelayMs: 2_000,
};

export async function whileRedisDown<T>(
  write: () => Promise<T>,
  options: RedisRetryOptions = REDIS_RETRY,
): Promise<T> {
  const deadline = Date.now() + options.deadlineMs;
  let delay = options.firstDelayMs;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isAppError(error) || !UNREACHABLE.has(error.code) || Date.now() + delay > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      delay = Math.min(delay * 2, options.maxDelayMs);
    }
  }
}
