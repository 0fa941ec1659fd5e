/**
 * Redis connections for BullMQ and the run store. Workers block on Redis and must retry forever
 * (`maxRetriesPerRequest: null`, commands wait in the offline queue until Redis is back).
 * Producers serve the Slack path and the metrics scrape, so they fail fast: commands queue only
 * until the first connect; once the connection has been up, a command sent while it is down is
 * refused at once (no offline queue), and a command Redis does not answer (a hung server, a
 * dropped network path) fails after PRODUCER_COMMAND_TIMEOUT_MS. A slash command whose run cannot
 * start is then answered QUEUE_UNAVAILABLE within a second or two, not after a reconnect loop.
 */
import { Redis } from 'ioredis';
import { withDeadline } from '../core/deadline.js';
import type { Logger } from '../log.js';

export type RedisPurpose = 'worker' | 'producer';

/** A producer command Redis does not answer within this long fails (Slack waits for the reply). */
export const PRODUCER_COMMAND_TIMEOUT_MS = 2_000;

export interface RedisOptions {
  /**
   * Commands sent in one turn of the event loop go out in one write (ioredis' auto-pipelining):
   * for the replay check, whose burst of one SET per Slack request would otherwise cost a
   * write(2) each between one ack and the next.
   */
  autoPipelining?: boolean;
}

export function createRedis(
  url: string,
  purpose: RedisPurpose,
  logger: Logger,
  options: RedisOptions = {},
): Redis {
  const producer = purpose === 'producer';
  const redis = new Redis(url, {
    enableAutoPipelining: options.autoPipelining ?? false,
    maxRetriesPerRequest: producer ? 1 : null,
    // Until the first connect commands wait (a process starting next to Redis); see below.
    enableOfflineQueue: true,
    ...(producer ? { commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS } : {}),
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
    lazyConnect: false,
  });
  if (producer) {
    // ioredis reads this option on every command: after the first `ready`, a producer command
    // sent while the connection is down is refused at once instead of waiting for a reconnect.
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
  }
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

/** Whether a connection is up now (no command sent): `ready` is ioredis' connected-and-usable state. */
export function redisConnected(redis: Redis): boolean {
  return redis.status === 'ready';
}

/**
 * Closes politely when connected (QUIT, so Redis drops the connection at once); a connection
 * that never came up, or whose QUIT is not answered within `ms` (a hung Redis), is just dropped.
 */
export async function closeRedis(redis: Redis, ms = 1_000): Promise<void> {
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  try {
    await withDeadline(redis.quit(), ms, () => new Error(`QUIT not answered within ${ms} ms`));
  } catch {
    // Dropped below either way.
  } finally {
    redis.disconnect();
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

export interface DownWatch {
  /** Resolves once the connection has been down, or not answered PING, for `forMs` in a row. */
  down: Promise<void>;
  cancel(): void;
}

/**
 * Watches a connection: `down` resolves once, for `forMs` in a row, it has not been ready or has
 * not answered PING within `pingMs` (a hung Redis keeps the connection "ready"). Shutdown uses it
 * to stop waiting for steps that can no longer save anything.
 */
export function watchDown(redis: Redis, forMs: number, pingMs = 500): DownWatch {
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  const answers = async (): Promise<boolean> => {
    if (!redisConnected(redis)) return false;
    try {
      await withDeadline(redis.ping(), pingMs, () => new Error('no PONG'));
      return true;
    } catch {
      return false;
    }
  };
  const down = new Promise<void>((resolve) => {
    let downSince: number | undefined;
    const poll = async (): Promise<void> => {
      const asked = Date.now();
      const up = await answers();
      if (cancelled) return;
      // A PING that went unanswered counts from when it was sent.
      downSince = up ? undefined : (downSince ?? asked);
      if (downSince !== undefined && Date.now() - downSince >= forMs) {
        resolve();
        return;
      }
      timer = setTimeout(() => void poll(), 100);
      timer.unref();
    };
    void poll();
  });
  return {
    down,
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}
