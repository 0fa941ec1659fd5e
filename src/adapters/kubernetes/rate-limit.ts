/**
 * A token bucket over the requests a probe shell makes (exec upgrades, probe pod reads, the fleet
 * probe's polls), as client-go's QPS and burst: a fleet pre-flight runs thousands of execs and
 * must not hammer the API server. A 429 pauses the whole bucket, not just the request that got it,
 * so every caller backs off together, as the server asked.
 */
export interface RateLimiter {
  /** Resolves when the caller may send one request. */
  take(): Promise<void>;
  /** Sends nothing for `ms` (the server throttled a request). */
  pause(ms: number): void;
}

/** Requests per second a probe shell sends by default, and the burst above it. */
export const DEFAULT_PROBE_QPS = 100;
export const DEFAULT_PROBE_BURST = 100;

export function tokenBucket(
  qps: number = DEFAULT_PROBE_QPS,
  burst: number = DEFAULT_PROBE_BURST,
  now: () => number = () => performance.now(),
): RateLimiter {
  let tokens = burst;
  let last = now();
  let pausedUntil = 0;
  // Waiters are served in order, one timer at a time, so a burst of callers is released at `qps`.
  let chain: Promise<void> = Promise.resolve();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.ceil(ms))));
  const refill = (): void => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - last) * qps) / 1000);
    last = t;
  };
  const next = async (): Promise<void> => {
    for (;;) {
      const paused = pausedUntil - now();
      if (paused > 0) {
        await sleep(paused);
        continue;
      }
      refill();
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(((1 - tokens) * 1000) / qps);
    }
  };
  return {
    take() {
      const turn = chain.then(next);
      chain = turn;
      return turn;
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };
}
