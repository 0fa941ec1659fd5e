/**
 * The jobs the queue carries, with their data schemas. Job data sits in clear text in Redis, so it
 * holds ids and names only: never tokens, kubeconfigs or response URLs.
 */
import { z } from 'zod';
import { newRunId } from './run-id.js';

export const RUNS_QUEUE = 'runs';

const slackId = z.string().regex(/^[A-Z0-9]+$/);

export const preflightJobSchema = z.object({
  runId: z.string().regex(/^[a-z0-9-]+$/),
  cluster: z.string().min(1),
  channel: slackId,
  requestedBy: z.object({ userId: slackId, teamId: slackId }),
  requestedAt: z.iso.datetime(),
  /** Progress saved as the job goes, so a retry edits the same card instead of posting another. */
  cardTs: z.string().optional(),
  repliesPosted: z.number().int().min(0).optional(),
  filePosted: z.boolean().optional(),
});
export type PreflightJob = z.infer<typeof preflightJobSchema>;

export type PreflightRequest = Pick<PreflightJob, 'cluster' | 'channel' | 'requestedBy'>;

/** The queue-independent part of enqueuing: a run id and validated job data. */
export function preflightJobData(request: PreflightRequest, now: Date): PreflightJob {
  return preflightJobSchema.parse({
    ...request,
    runId: newRunId('pf', now),
    requestedAt: now.toISOString(),
  });
}

/** How a run ended, for callers that wait for one (the demo, tests). */
export type RunEnd = 'completed' | 'failed';

/** Where slash commands hand runs over: BullMQ on Redis, or in-process when there is no Redis. */
export interface Runs {
  enqueuePreflight(request: PreflightRequest): Promise<string>;
  /** Resolves when the run has finished (all retries included), or rejects at the deadline. */
  waitFor(runId: string, timeoutMs: number): Promise<RunEnd>;
}

export const jobSchemas = {
  preflight: preflightJobSchema,
} as const;

export type JobName = keyof typeof jobSchemas;
export type JobData<N extends JobName> = z.infer<(typeof jobSchemas)[N]>;

/**
 * What a job handler sees of its job, whichever executor runs it (BullMQ or in-process):
 * its data, which attempt this is, and a way to save progress before a crash or retry.
 */
export interface JobContext<T> {
  readonly data: T;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly maxAttempts: number;
  save(data: T): Promise<void>;
}
