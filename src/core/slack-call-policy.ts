/**
 * What to do after a Slack Web API call failed: wait out a 429 for as long as Slack asks, back
 * off on Slack's transient errors, never retry a refusal, and stop at the call's deadline. A
 * failure whose outcome is unknown (a timeout, a dropped connection, a 5xx) may have taken
 * effect, so the caller looks before it posts again.
 */

export type SlackFailureKind =
  /** HTTP 429 (or ok:false ratelimited): nothing was done; Slack says when to come back. */
  | 'rate-limited'
  /** Slack said it did nothing and may manage later (service_unavailable). */
  | 'transient'
  /** No answer, or one that does not say whether the call took effect. */
  | 'uncertain'
  /** A refusal (channel gone, auth, bad arguments): the same call fails again. */
  | 'final';

export interface SlackFailure {
  kind: SlackFailureKind;
  /** For `rate-limited`: Slack's Retry-After, in milliseconds. */
  retryAfterMs?: number;
}

export type SlackRetryDecision =
  | {
      action: 'retry';
      afterMs: number;
      /** The earlier attempt may have posted: look for it before posting again. */
      reconcile: boolean;
    }
  | { action: 'give-up'; reason: 'final' | 'deadline' };

/** Backoff for transient failures: 1 s, 2 s, 4 s … capped here. */
export const SLACK_BACKOFF_CAP_MS = 15_000;
/** Slack answers ok:false ratelimited without a header at times: a second is its usual window. */
const DEFAULT_RETRY_AFTER_MS = 1_000;

/**
 * `attempt` counts from 1 (the call that just failed); `remainingMs` is what is left of the
 * deadline; `jitter` in [0, 1) spreads retries of many calls that failed together.
 */
export function nextSlackAttempt(
  failure: SlackFailure,
  attempt: number,
  remainingMs: number,
  jitter: number,
): SlackRetryDecision {
  if (failure.kind === 'final') return { action: 'give-up', reason: 'final' };
  const base =
    failure.kind === 'rate-limited'
      ? // Retry-After is a floor: coming back early only earns another 429.
        (failure.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS) + Math.floor(jitter * 250)
      : Math.min(SLACK_BACKOFF_CAP_MS, 1_000 * 2 ** Math.max(0, attempt - 1)) *
        (0.75 + jitter * 0.5);
  const afterMs = Math.round(base);
  if (afterMs >= remainingMs) return { action: 'give-up', reason: 'deadline' };
  return { action: 'retry', afterMs, reconcile: failure.kind === 'uncertain' };
}
