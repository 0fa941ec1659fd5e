/**
 * Retries of Kubernetes API requests, as client-go does them: a 429 waits the Retry-After the
 * server sent (capped), a 5xx, a timeout or a dropped connection backs off with jitter. Reads
 * retry all of these; a write request retries only a 429 (the server refused the request before
 * acting on it), since a 5xx or a dropped connection may hide a write that happened: those go
 * back to the applier (apply/context.ts retryConflicts), which reads what the cluster has before
 * it writes again. Every retry is bounded in attempts and in time.
 */
import { ApiException } from '@kubernetes/client-node';
import type { ClusterGate, RetryReason } from './rate-limit.js';

export interface RetryPolicy {
  attempts: number;
  /** First backoff; doubled each attempt, with ±50% jitter. */
  baseMs: number;
  maxMs: number;
  /** The longest Retry-After honoured. */
  maxRetryAfterMs: number;
}

/** client-go retries a throttled request up to 10 times; a read here gets 8 attempts in all. */
export const READ_RETRY: RetryPolicy = {
  attempts: 8,
  baseMs: 250,
  maxMs: 4_000,
  maxRetryAfterMs: 10_000,
};
export const WRITE_RETRY: RetryPolicy = { ...READ_RETRY, attempts: 5 };
/** A pre-flight runs a dozen execs per node: a refused upgrade gets client-go's 10 attempts. */
export const EXEC_RETRY: RetryPolicy = { ...READ_RETRY, attempts: 10 };

// A connection that broke mid-request is retried here; a server that refuses connections or a
// name that does not resolve is the cluster being down: the step's own retries (with the card
// saying so) handle that, rather than a silent 16 s loop inside one request.
const NETWORK = new Set(['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET']);

export type Retryable = { wait: 'retry-after'; ms: number } | { wait: 'backoff' } | undefined;

/** Whether `error` is worth another attempt, and how long the server asked to wait. */
export function retryable(error: unknown, write: boolean): Retryable {
  if (error instanceof ApiException) {
    if (error.code === 429) {
      const header = (error.headers as Record<string, string | undefined> | undefined)?.[
        'retry-after'
      ];
      const seconds = Number(header);
      return Number.isFinite(seconds) && seconds >= 0
        ? { wait: 'retry-after', ms: seconds * 1000 }
        : { wait: 'backoff' };
    }
    if (write) return undefined;
    return [500, 502, 503, 504].includes(error.code) ? { wait: 'backoff' } : undefined;
  }
  if (write) return undefined;
  const e = error as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return { wait: 'backoff' };
  const code = typeof e.code === 'string' ? e.code : e.cause?.code;
  return typeof code === 'string' && NETWORK.has(code) ? { wait: 'backoff' } : undefined;
}

/**
 * An exec or attach whose WebSocket upgrade the server refused (the `ws` client reports
 * "Unexpected server response: 429") or whose connection broke before the upgrade's answer
 * (ECONNRESET, "socket hang up"): the streams were never set up, so the command never started
 * and another attempt is safe.
 */
export function upgradeRefused(error: unknown): Retryable {
  // client-node rejects with the `ws` ErrorEvent, whose `error` holds the socket's own error.
  const e = error as { code?: unknown; error?: { code?: unknown } } | undefined;
  if ((e?.code ?? e?.error?.code) === 'ECONNRESET') return { wait: 'backoff' };
  const status = /Unexpected server response: (\d{3})/.exec(
    String((error as Error | undefined)?.message),
  )?.[1];
  if (status === undefined) return undefined;
  const code = Number(status);
  return code === 429 || (code >= 500 && code <= 504) ? { wait: 'backoff' } : undefined;
}

/** Why an attempt is repeated, for the cluster's counters. */
export function retryReason(error: unknown): RetryReason {
  const status =
    error instanceof ApiException
      ? error.code
      : Number(
          /Unexpected server response: (\d{3})/.exec(
            String((error as Error | undefined)?.message),
          )?.[1],
        );
  if (status === 429) return 'throttled';
  if (status === 409) return 'conflict';
  if (status >= 500) return 'server-error';
  const name = (error as { name?: unknown } | undefined)?.name;
  return name === 'AbortError' || name === 'TimeoutError' ? 'timeout' : 'connection';
}

export function backoffMs(policy: RetryPolicy, attempt: number, random = Math.random): number {
  const base = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.round(base * (0.5 + random()));
}

export async function withRetry<T>(
  request: () => Promise<T>,
  options: {
    write: boolean;
    policy?: RetryPolicy;
    /** Another judge of what is retryable (exec's WebSocket upgrade). */
    classify?: (error: unknown) => Retryable;
    onRetry?: (error: unknown, waitMs: number) => void;
    /** The cluster's gate, which counts the retries. */
    gate?: ClusterGate;
  },
): Promise<T> {
  const policy = options.policy ?? (options.write ? WRITE_RETRY : READ_RETRY);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await request();
    } catch (error) {
      const again = (options.classify ?? ((e: unknown) => retryable(e, options.write)))(error);
      if (again === undefined || attempt + 1 >= policy.attempts) throw error;
      const waitMs =
        again.wait === 'retry-after'
          ? Math.min(policy.maxRetryAfterMs, again.ms)
          : backoffMs(policy, attempt);
      options.gate?.retried(retryReason(error));
      options.onRetry?.(error, waitMs);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
