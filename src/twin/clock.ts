// The twin's simulated clock: wall time scaled by `speed` from the moment the twin started, so a
// demo can make minutes of pod churn pass in seconds while ages and timestamps stay consistent.

export interface Clock {
  /** Simulated now, in epoch milliseconds. */
  now(): number;
  /** Simulated now as Kubernetes prints timestamps: RFC 3339 with second precision. */
  timestamp(): string;
  readonly speed: number;
}

export function toTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export function createClock(speed = 1, realNow: () => number = Date.now): Clock {
  if (!(speed > 0)) throw new Error(`twin: speed must be positive, got ${speed}`);
  const start = realNow();
  const now = (): number => start + (realNow() - start) * speed;
  return { now, timestamp: () => toTimestamp(now()), speed };
}
