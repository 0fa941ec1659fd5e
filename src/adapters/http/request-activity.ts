/**
 * Which signed Slack requests are waiting for their answer, from their signature's check to the
 * end of their response. Under a burst of commands the bot's one event loop would otherwise
 * interleave the slow part of the early ones (starting runs, Redis writes, replies), the
 * worker's next jobs and the calls of the steps in flight with the parsing and acking of the
 * later ones, and Slack counts every millisecond of that. {@link Foreground.quiet} lets that work
 * wait until every request of the burst has its ack.
 */
import type { ServerResponse } from 'node:http';
import type { Foreground } from '../../ports/foreground.js';

/** No wait is longer: under sustained load the deferred work still moves. */
export const QUIET_MAX_WAIT_MS = 1_000;
/**
 * Quiet means no request for this long: the requests of one burst reach the server over some
 * milliseconds, and answering the first ones before the rest arrive is not the burst's end.
 */
export const QUIET_SETTLE_MS = 20;
/**
 * A request counts from its arrival, before its signature is checked (a Slack request's body
 * comes with its headers, so that is immediate): otherwise work released in the moment between
 * a burst's first acks and its next requests being read runs ahead of them. Unsigned, it counts
 * only this long, so a stranger's slow request holds nothing back for longer.
 */
export const UNVERIFIED_MAX_MS = 100;

/** A request counted from its arrival; {@link signed} keeps it counted until it is answered. */
export interface Arrival {
  signed(): void;
}

export class RequestActivity implements Foreground {
  private open = 0;
  private lastEnd = 0;
  private settling: NodeJS.Timeout | undefined;
  private waking = false;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Counts `res` as waiting from now: until it ends (answered, refused or dropped) once
   * {@link Arrival.signed}, else for at most {@link UNVERIFIED_MAX_MS}.
   */
  arrive(res: ServerResponse): Arrival {
    this.open += 1;
    let counted = true;
    const end = (): void => {
      if (!counted) return;
      counted = false;
      clearTimeout(unverified);
      this.open -= 1;
      this.lastEnd = this.now();
      if (this.open === 0) this.settle(QUIET_SETTLE_MS);
    };
    const unverified = setTimeout(end, UNVERIFIED_MAX_MS);
    unverified.unref();
    res.once('close', end);
    return { signed: () => clearTimeout(unverified) };
  }

  /** Counts `res` as waiting until it ends (answered, refused or dropped). */
  track(res: ServerResponse): void {
    this.arrive(res).signed();
  }

  /** Requests waiting for their answer now. */
  get waiting(): number {
    return this.open;
  }

  private isQuiet(): boolean {
    return this.open === 0 && this.now() - this.lastEnd >= QUIET_SETTLE_MS;
  }

  quiet(maxWaitMs = QUIET_MAX_WAIT_MS): Promise<void> {
    if (this.isQuiet()) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, maxWaitMs);
      this.waiters.add(wake);
    });
  }

  /** Wakes the waiters once no request has come or gone for the settle time. */
  private settle(ms: number): void {
    clearTimeout(this.settling);
    this.settling = setTimeout(() => {
      this.settling = undefined;
      if (this.open > 0) return;
      const left = QUIET_SETTLE_MS - (this.now() - this.lastEnd);
      if (left > 0) {
        this.settle(left);
        return;
      }
      this.wakeOneByOne();
    }, ms);
    // Never what keeps a process alive.
    this.settling.unref();
  }

  /**
   * One waiter a turn of the event loop, oldest first, while it stays quiet: woken together,
   * a hundred deferred starts would run back to back before the server reads the next request,
   * so a burst arriving just then would wait for all of them. Between two, the loop polls for
   * connections; a request that arrived stops the wakes until the next quiet.
   */
  private wakeOneByOne(): void {
    if (this.waking) return;
    this.waking = true;
    const next = (): void => {
      const wake = this.waiters.values().next().value;
      if (wake === undefined || !this.isQuiet()) {
        this.waking = false;
        return;
      }
      wake();
      setImmediate(next);
    };
    setImmediate(next);
  }
}
