/**
 * Redis connections for BullMQ and the run store. Workers block on Redis and must retry forever
 * (`maxRetriesPerRequest: null`); producers on the Slack path fail after one reconnect attempt
 * instead, so a slash command whose run cannot start gets an answer within Slack's patience.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../log.js';

export type RedisPurpose = 'worker' | 'producer';

export function createRedis(url: string, purpose: RedisPurpose, logger: Logger): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: purpose === 'worker' ? null : 1,
    // Producers queue a command until the first connect (or one failed reconnect), then fail.
    enableOfflineQueue: true,
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
    lazyConnect: false,
  });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // ioredis repeats the same error on every reconnect attempt; log each distinct one once.
    if (error.message !== lastError) logger.warn({ err: error, purpose }, 'redis connection error');
    lastError = error.message;
  });
  redis.on('ready', () => {
    if (lastError !== '') logger.info({ purpose }, 'redis connection restored');
    lastError = '';
  });
  return redis;
}

/** Closes politely when connected; a connection that never came up is just dropped. */
export async function closeRedis(redis: Redis, ms = 1_000): Promise<void> {
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  const timer = setTimeout(() => redis.disconnect(), ms);
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a Redis answers PING at `url` within `ms`; never retries, never throws. */
export async function redisAnswers(url: string, ms = 1_000): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: ms,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key under a queue prefix (BullMQ keys are `<prefix>:<queue>:…`). */
export async function deletePrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
