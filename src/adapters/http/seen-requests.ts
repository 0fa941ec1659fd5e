/**
 * Which signed Slack requests were already served. A request's signature stays valid for the
 * whole signing window, so without this the same captured bytes could be sent again (and run
 * again) for five minutes. Every bot replica shares the Redis set; a bot with the in-process
 * executor (no Redis) keeps its own.
 */
import type { Redis } from 'ioredis';
import { withDeadline } from '../../core/deadline.js';
import type { Logger } from '../../log.js';
import { SIGNATURE_WINDOW_SECONDS } from './slack-request.js';

export interface SeenRequests {
  /** True the first time `id` is offered within the window, false on every later offer. */
  firstSeen(id: string): Promise<boolean>;
}

/** A request is valid from 5 min before to 5 min after its timestamp: remember it that long. */
export const SEEN_TTL_SECONDS = 2 * SIGNATURE_WINDOW_SECONDS + 60;

export class RedisSeenRequests implements SeenRequests {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async firstSeen(id: string): Promise<boolean> {
    const answer = await this.redis.set(
      `${this.prefix}:slack-seen:${id}`,
      '1',
      'EX',
      SEEN_TTL_SECONDS,
      'NX',
    );
    return answer === 'OK';
  }
}

/** In this process only, bounded: past `max` entries the oldest are forgotten first. */
export class MemorySeenRequests implements SeenRequests {
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = 100_000,
  ) {}

  firstSeen(id: string): Promise<boolean> {
    const now = this.now();
    const expiry = this.expiries.get(id);
    if (expiry !== undefined && expiry > now) return Promise.resolve(false);
    this.expiries.delete(id);
    this.prune(now);
    this.expiries.set(id, now + SEEN_TTL_SECONDS * 1000);
    return Promise.resolve(true);
  }

  private prune(now: number): void {
    // Insertion order is expiry order (every entry lives as long), so expired ones come first.
    for (const [id, expiry] of this.expiries) {
      if (expiry > now && this.expiries.size < this.max) break;
      this.expiries.delete(id);
    }
  }
}

/**
 * Redis for every replica, with this process's own memory in front: a replay to the same
 * replica is caught even while Redis is down, and an outage degrades the check to this replica
 * (logged) instead of refusing every command. Nothing that changes a cluster runs without Redis
 * anyway: runs live there.
 */
export class SharedSeenRequests implements SeenRequests {
  private degraded = false;

  constructor(
    private readonly shared: SeenRequests,
    private readonly local: SeenRequests,
    private readonly logger: Logger,
    private readonly deadlineMs = 500,
  ) {}

  async firstSeen(id: string): Promise<boolean> {
    if (!(await this.local.firstSeen(id))) return false;
    try {
      const first = await withDeadline(
        this.shared.firstSeen(id),
        this.deadlineMs,
        () => new Error(`no answer within ${this.deadlineMs} ms`),
      );
      if (this.degraded) this.logger.info('replay check: shared store answering again');
      this.degraded = false;
      return first;
    } catch (error) {
      if (!this.degraded) {
        this.logger.warn(
          { err: { message: (error as Error).message } },
          'replay check: shared store unavailable, checking this replica only',
        );
      }
      this.degraded = true;
      return true;
    }
  }
}
