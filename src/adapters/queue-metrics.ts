/**
 * The queue's own Prometheus text (BullMQ's job counts) for `/metrics`, read from Redis at most
 * once per `ttlMs` and never waited on longer than `deadlineMs`. BullMQ costs about 17 Redis
 * commands a read; without the cache every scrape (and every replica's) pays them, and without
 * the deadline a scrape hangs while Redis is down. When a read fails or is late the scrape gets
 * the last text read (Prometheus then sees the counts stop moving) and the process metrics, which
 * never depend on Redis.
 */
export interface QueueMetricsOptions {
  /** How long a text read from Redis is served before it is read again. */
  ttlMs: number;
  /** How long one scrape waits for Redis before it answers without the fresh text. */
  deadlineMs: number;
  now?: () => number;
}

export const QUEUE_METRICS_TTL_MS = 5_000;
export const QUEUE_METRICS_DEADLINE_MS = 500;

export function cachedQueueMetrics(
  read: () => Promise<string>,
  options: QueueMetricsOptions = {
    ttlMs: QUEUE_METRICS_TTL_MS,
    deadlineMs: QUEUE_METRICS_DEADLINE_MS,
  },
): () => Promise<string> {
  const now = options.now ?? Date.now;
  let last = '';
  let readAt = Number.NEGATIVE_INFINITY;
  // One read at a time: concurrent scrapes (several Prometheus servers) share it.
  let inFlight: Promise<string> | undefined;
  const refresh = (): Promise<string> => {
    inFlight ??= read()
      .then((text) => {
        last = text;
        return text;
      })
      .catch(() => last)
      .finally(() => {
        // A failed read also waits out the TTL: a down Redis is not asked on every scrape.
        readAt = now();
        inFlight = undefined;
      });
    return inFlight;
  };
  return async () => {
    if (now() - readAt < options.ttlMs) return last;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(last), options.deadlineMs);
      timer.unref();
    });
    try {
      return await Promise.race([refresh(), late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
