// The twin's simulated clock: wall time scaled by `speed` from the moment the twin started, so a
// demo can make minutes of pod churn pass in seconds while ages and timestamps stay consistent.
// Timers take simulated delays; a manual clock lets tests step simulated time deterministically.

export interface Clock {
  /** Simulated now, in epoch milliseconds. */
  now(): number;
  /** Simulated now as Kubernetes prints timestamps: RFC 3339 with second precision. */
  timestamp(): string;
  readonly speed: number;
}

/** Cancels a timer; calling it after the timer fired (or twice) is harmless. */
export type Cancel = () => void;

/** A set of timers on simulated time, owned by one user so that stop() clears only its own. */
export interface Scheduler {
  /** Runs `fn` once `simMs` of simulated time has passed. */
  after(simMs: number, fn: () => void): Cancel;
  /** Simulated epoch ms of the earliest pending timer, or undefined when none is pending. */
  nextDue(): number | undefined;
  pending(): number;
  /** Cancels every pending timer; later after() calls are ignored. */
  stop(): void;
}

/** A clock that only moves when told to, firing due timers in (time, creation) order. */
export interface ManualClock extends Clock {
  /** Moves simulated time forward, running every timer due on the way, in order. */
  advance(simMs: number): void;
  /** Creates a scheduler whose timers live on this clock. */
  scheduler(): Scheduler;
  /** Timers pending on this clock, across all its schedulers. */
  pendingTimers(): number;
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

export function isManualClock(clock: Clock): clock is ManualClock {
  const candidate = clock as Partial<ManualClock>;
  return typeof candidate.advance === 'function' && typeof candidate.scheduler === 'function';
}

function earliest(dues: Iterable<number>): number | undefined {
  let min: number | undefined;
  for (const due of dues) if (min === undefined || due < min) min = due;
  return min;
}

/** Real timers scaled by the clock's speed, unref'd so that a forgotten timer never holds Node. */
function realScheduler(clock: Clock): Scheduler {
  const timers = new Map<NodeJS.Timeout, number>();
  let stopped = false;
  return {
    after(simMs, fn) {
      if (stopped) return () => undefined;
      const delay = Math.max(0, simMs);
      const handle = setTimeout(() => {
        timers.delete(handle);
        fn();
      }, delay / clock.speed);
      handle.unref();
      timers.set(handle, clock.now() + delay);
      return () => {
        clearTimeout(handle);
        timers.delete(handle);
      };
    },
    nextDue: () => earliest(timers.values()),
    pending: () => timers.size,
    stop() {
      stopped = true;
      for (const handle of timers.keys()) clearTimeout(handle);
      timers.clear();
    },
  };
}

/** The scheduler for a clock: the manual clock's own queue, else real timers scaled by speed. */
export function createScheduler(clock: Clock): Scheduler {
  return isManualClock(clock) ? clock.scheduler() : realScheduler(clock);
}

interface ManualTimer {
  due: number;
  seq: number;
  fn: () => void;
  owner: Set<ManualTimer>;
}

export function createManualClock(startMs = Date.parse('2025-08-20T10:00:00Z')): ManualClock {
  let current = startMs;
  let seq = 0;
  const queue: ManualTimer[] = [];
  const remove = (timer: ManualTimer): void => {
    const index = queue.indexOf(timer);
    if (index >= 0) queue.splice(index, 1);
    timer.owner.delete(timer);
  };
  // Kept sorted by (due, seq), so the head is always the next timer to fire.
  const insert = (timer: ManualTimer): void => {
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = queue[mid];
      if (other && (other.due < timer.due || (other.due === timer.due && other.seq < timer.seq)))
        lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, timer);
  };
  const now = (): number => current;
  return {
    now,
    timestamp: () => toTimestamp(current),
    speed: 1,
    advance(simMs) {
      const target = current + Math.max(0, simMs);
      for (let next = queue[0]; next && next.due <= target; next = queue[0]) {
        remove(next);
        current = Math.max(current, next.due);
        next.fn();
      }
      current = target;
    },
    scheduler() {
      const own = new Set<ManualTimer>();
      let stopped = false;
      return {
        after(simMs, fn) {
          if (stopped) return () => undefined;
          seq += 1;
          const timer: ManualTimer = { due: current + Math.max(0, simMs), seq, fn, owner: own };
          insert(timer);
          own.add(timer);
          return () => remove(timer);
        },
        nextDue: () => earliest([...own].map((t) => t.due)),
        pending: () => own.size,
        stop() {
          stopped = true;
          for (const timer of [...own]) remove(timer);
        },
      };
    },
    pendingTimers: () => queue.length,
  };
}
