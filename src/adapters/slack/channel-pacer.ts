/**
 * Paces Slack writes per channel: Slack allows about one message a second in a channel (short
 * bursts pass), so a hundred pre-flights asked in one channel queue here instead of earning
 * 429s. Queued edits of the same message coalesce: only the newest content is sent, and every
 * caller that asked for an older one is answered when it lands. A 429 pauses the whole
 * channel until its Retry-After, since every queued call would earn the same answer.
 */

export interface PacerOptions {
  /** Calls let through per second, per channel, once the burst is spent. */
  perSecond: number;
  /** Calls let through at once after a quiet spell. */
  burst: number;
}

export const SLACK_CHANNEL_PACE: PacerOptions = { perSecond: 1, burst: 3 };

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

interface Entry {
  task: () => Promise<unknown>;
  coalesce?: { key: string; seq: number };
  waiters: Waiter<unknown>[];
}

interface Lane {
  tokens: number;
  refilledAt: number;
  pausedUntil: number;
  queue: Entry[];
  pumping: boolean;
}

/** How many coalesce keys keep their last landed seq (oldest forgotten first). */
const LANDED_KEPT = 10_000;

export class ChannelPacer {
  private readonly lanes = new Map<string, Lane>();
  /** Per coalesce key, the newest seq that landed: an older one arriving late is not sent. */
  private readonly landed = new Map<string, number>();

  constructor(private readonly options: PacerOptions = SLACK_CHANNEL_PACE) {}

  /**
   * Runs `task` when `lane` has room. With `coalesce`, a queued task of the same key is
   * replaced by the one with the higher `seq` (the newer content), and both callers get its
   * result.
   */
  run<T>(
    lane: string,
    task: () => Promise<T>,
    coalesce?: { key: string; seq: number },
  ): Promise<T> {
    const state = this.lane(lane);
    return new Promise<T>((resolve, reject) => {
      const waiter = { resolve, reject } as Waiter<unknown>;
      const newer = coalesce === undefined ? undefined : this.landed.get(coalesce.key);
      if (coalesce !== undefined && newer !== undefined && newer > coalesce.seq) {
        // A retry of old content after newer content landed would put the old back.
        resolve(undefined as T);
        return;
      }
      const queued =
        coalesce === undefined
          ? undefined
          : state.queue.find((entry) => entry.coalesce?.key === coalesce.key);
      if (queued?.coalesce !== undefined && coalesce !== undefined) {
        if (coalesce.seq >= queued.coalesce.seq) {
          queued.task = task;
          queued.coalesce = coalesce;
        }
        queued.waiters.push(waiter);
        return;
      }
      state.queue.push({
        task,
        waiters: [waiter],
        ...(coalesce === undefined ? {} : { coalesce }),
      });
      this.pump(state);
    });
  }

  /** Holds every call to `lane` until `untilMs` (epoch ms): Slack said so with a 429. */
  pause(lane: string, untilMs: number): void {
    const state = this.lane(lane);
    state.pausedUntil = Math.max(state.pausedUntil, untilMs);
  }

  /** Calls waiting in `lane` (not counting those already sent). */
  queued(lane: string): number {
    return this.lanes.get(lane)?.queue.length ?? 0;
  }

  private markLanded(coalesce: { key: string; seq: number }): void {
    const before = this.landed.get(coalesce.key);
    this.landed.delete(coalesce.key);
    this.landed.set(coalesce.key, Math.max(before ?? coalesce.seq, coalesce.seq));
    if (this.landed.size > LANDED_KEPT) {
      const oldest = this.landed.keys().next().value;
      if (oldest !== undefined) this.landed.delete(oldest);
    }
  }

  private lane(name: string): Lane {
    let lane = this.lanes.get(name);
    if (lane === undefined) {
      lane = {
        tokens: this.options.burst,
        refilledAt: Date.now(),
        pausedUntil: 0,
        queue: [],
        pumping: false,
      };
      this.lanes.set(name, lane);
    }
    return lane;
  }

  private refill(lane: Lane, now: number): void {
    const earned = ((now - lane.refilledAt) / 1000) * this.options.perSecond;
    lane.tokens = Math.min(this.options.burst, lane.tokens + earned);
    lane.refilledAt = now;
  }

  private pump(lane: Lane): void {
    if (lane.pumping) return;
    lane.pumping = true;
    const step = (): void => {
      const entry = lane.queue[0];
      if (entry === undefined) {
        lane.pumping = false;
        return;
      }
      const now = Date.now();
      this.refill(lane, now);
      const waitMs = Math.max(
        lane.pausedUntil - now,
        lane.tokens >= 1 ? 0 : ((1 - lane.tokens) / this.options.perSecond) * 1000,
      );
      if (waitMs > 0) {
        // Not unref'd: a queued post is work the process still owes someone.
        setTimeout(step, Math.ceil(waitMs));
        return;
      }
      lane.queue.shift();
      lane.tokens -= 1;
      entry.task().then(
        (value) => {
          if (entry.coalesce !== undefined) this.markLanded(entry.coalesce);
          entry.waiters.forEach((w) => w.resolve(value));
        },
        (error: unknown) => entry.waiters.forEach((w) => w.reject(error)),
      );
      step();
    };
    step();
  }
}
