/**
 * What the action appliers share: the typed clients, the per-request deadline, error mapping and
 * the dry-run flag. One applier file per kind of object; index.ts dispatches by action kind.
 */
import {
  ApiException,
  type AppsV1Api,
  type ConfigurationOptions,
  type CoordinationV1Api,
  type CoreV1Api,
  type V1DeleteOptions,
} from '@kubernetes/client-node';
import { AppError } from '../../../errors.js';
import { kubeError } from '../errors.js';
import type { ClusterGate } from '../rate-limit.js';
import {
  backoffMs,
  READ_RETRY,
  retryable,
  retryReason,
  withRetry,
  type RetryPolicy,
} from '../retry.js';

/** Whether every planned field is in the live object as planned (live objects carry defaults). */
export { contains } from '../../../core/plan-unchanged.js';

export interface ApplyContext {
  cluster: string;
  core: CoreV1Api;
  apps: AppsV1Api;
  coordination: CoordinationV1Api;
  options(): ConfigurationOptions;
  /** The cluster's rate limit and retry counters. */
  gate: ClusterGate;
  dryRun: boolean;
  /**
   * Set on the attempts after a 409: the object changed under the write, so an applier whose
   * action carries no resourceVersion precondition checks the fields it writes are still as the
   * plan read them (or already as wanted) before it writes again.
   */
  afterConflict?: boolean;
}

/** `dryRun=All` on every write of a dry run; nothing on a real one. */
export function dryRunParam(ctx: ApplyContext): { dryRun?: string } {
  return ctx.dryRun ? { dryRun: 'All' } : {};
}

/**
 * The body of a DELETE, with `dryRun: ["All"]` on a dry run: the API server reads a DELETE's
 * options from its body alone when there is one (handlers/delete.go), and ignores a `dryRun`
 * query next to it, so a dry run sent only in the query would delete for real.
 */
export function deleteBody(ctx: ApplyContext, options: V1DeleteOptions): V1DeleteOptions {
  return ctx.dryRun ? { ...options, dryRun: ['All'] } : options;
}

export async function call<T>(
  ctx: ApplyContext,
  what: string,
  request: () => Promise<T>,
): Promise<T> {
  try {
    // A write is retried on a 429 only: the server refused it before acting.
    return await withRetry(request, { write: true, gate: ctx.gate });
  } catch (error) {
    throw kubeError(error, ctx.cluster, what);
  }
}

/** Reads an object; undefined when it does not exist. */
export async function readOrUndefined<T>(
  ctx: ApplyContext,
  what: string,
  request: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await withRetry(request, { write: false, gate: ctx.gate });
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw kubeError(error, ctx.cluster, what);
  }
}

/** The object changed since the action was computed from it: re-plan, never overwrite. */
export function changedSince(
  ctx: ApplyContext,
  what: string,
  planned: string,
  live: string,
): AppError {
  return new AppError(
    'K8S_CONFLICT',
    `Cluster ${ctx.cluster}: ${what} changed since it was read (resourceVersion ${planned}, now ${live}).`,
    {
      remedy: 'Someone else changed it at the same time; the step reads it again and retries.',
      retryable: true,
      details: { cluster: ctx.cluster, what, planned, live },
    },
  );
}

/** A field the action writes is neither what the plan read nor what it wants: someone else's. */
export function notAsPlanned(
  ctx: ApplyContext,
  what: string,
  planned: string,
  live: string,
): AppError {
  return new AppError(
    'K8S_CONFLICT',
    `Cluster ${ctx.cluster}: ${what} changed since it was read (planned on ${planned}, now ${live}); not written.`,
    {
      remedy:
        'Someone else changed it at the same time; find who (managedFields in kubectl get -o yaml), then run the step again.',
      retryable: true,
      details: { cluster: ctx.cluster, what, planned, live },
    },
  );
}

/** After a write: the API server's answer must hold what was asked, or the write is not trusted. */
export function notKept(ctx: ApplyContext, what: string): AppError {
  return new AppError('K8S_API_ERROR', `Cluster ${ctx.cluster}: after the write, ${what}.`, {
    remedy: 'Check for an admission webhook or controller that rewrites the object.',
    details: { cluster: ctx.cluster, what },
  });
}

/** A JSON Pointer segment (RFC 6901): `~` → `~0`, `/` → `~1`, for label keys like a/b. */
export function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The API's JSON shape of an SDK model (dates as strings, no undefined). */
export function plain<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A 409 the API server sent (a lost resourceVersion race, or AlreadyExists), not our own check. */
export function serverConflict(error: unknown): boolean {
  return (
    error instanceof AppError &&
    error.code === 'K8S_CONFLICT' &&
    error.cause instanceof ApiException &&
    error.cause.code === 409
  );
}

/** Attempts of an action whose write keeps failing: a storm ends as the error, not a loop. */
export const CONFLICT_RETRY: RetryPolicy = { ...READ_RETRY, attempts: 5, baseMs: 100 };

/**
 * Why the applier may run again, re-reading first: a 409 (the write lost a race), or a 5xx, a
 * timeout or a dropped connection, any of which may hide a write that happened; the re-read tells
 * (the object is already as wanted: unchanged). Undefined for everything else.
 */
function rereadable(error: unknown): 'conflict' | 'transient' | undefined {
  if (serverConflict(error)) return 'conflict';
  if (!(error instanceof AppError) || error.cause === undefined) return undefined;
  return retryable(error.cause, false) === undefined ? undefined : 'transient';
}

/**
 * Runs an applier again when its write got 409 Conflict, a 5xx, a timeout or a reset. Every
 * applier reads the live object first and writes only if the action still holds (the object is
 * the one the plan was computed from, or already as wanted, which ends the action unchanged),
 * then checks the answer; so each attempt re-reads and re-verifies, and a change the plan did not
 * expect ends in changedSince or notAsPlanned, never an overwrite. Bounded in attempts and time.
 */
export async function retryConflicts<T>(
  ctx: ApplyContext,
  apply: (ctx: ApplyContext) => Promise<T>,
  policy: RetryPolicy = CONFLICT_RETRY,
): Promise<T> {
  let changed = false;
  for (let attempt = 0; ; attempt += 1) {
    try {
      // After a failed write the object may have moved: the applier checks it is still as planned.
      // A dry run's actions build on writes it never made, so their `previous` is hypothetical:
      // only a real write is held to it.
      return await apply(changed && !ctx.dryRun ? { ...ctx, afterConflict: true } : ctx);
    } catch (error) {
      const why = rereadable(error);
      if (why === undefined || attempt + 1 >= policy.attempts) throw error;
      changed = true;
      ctx.gate.retried(why === 'conflict' ? 'conflict' : retryReason((error as AppError).cause));
      await new Promise((resolve) => setTimeout(resolve, backoffMs(policy, attempt)));
    }
  }
}
