/**
 * The queue's jobs: `advance` runs one step of a run, `signal` delivers a timed event (an
 * approval's expiry), `drift-check` (made by a per-cluster job scheduler) checks a cluster's
 * migration invariants. Job data sits in clear text in Redis, so it holds ids only; the run
 * itself lives in the run store.
 */
import { z } from 'zod';

export const RUNS_QUEUE = 'runs';

const runId = z.string().regex(/^[a-z0-9-]+$/);

export const advanceJobSchema = z.object({ runId, stepId: z.string().regex(/^[a-z0-9-]+$/) });
export const signalJobSchema = z.object({
  runId,
  event: z.object({ type: z.literal('expired'), at: z.iso.datetime() }),
});

export const driftCheckJobSchema = z.object({ cluster: z.string().regex(/^[a-z0-9-]+$/) });

export const jobSchemas = {
  advance: advanceJobSchema,
  signal: signalJobSchema,
  'drift-check': driftCheckJobSchema,
} as const;
export type JobName = keyof typeof jobSchemas;
export type AdvanceJob = z.infer<typeof advanceJobSchema>;
export type SignalJob = z.infer<typeof signalJobSchema>;
export type DriftCheckJob = z.infer<typeof driftCheckJobSchema>;

export const DRIFT_CHECK_JOB = 'drift-check' satisfies JobName;
/** One job scheduler per cluster; BullMQ ids may not contain `:`. */
export const DRIFT_SCHEDULER_PREFIX = 'drift.';
