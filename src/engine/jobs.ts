/**
 * The queue's jobs. There are two: `advance` runs one step of a run, `signal` delivers a timed
 * event (an approval's expiry). Job data sits in clear text in Redis, so it holds ids only; the
 * run itself lives in the run store.
 */
import { z } from 'zod';

export const RUNS_QUEUE = 'runs';

const runId = z.string().regex(/^[a-z0-9-]+$/);

export const advanceJobSchema = z.object({ runId, stepId: z.string().regex(/^[a-z0-9-]+$/) });
export const signalJobSchema = z.object({
  runId,
  event: z.object({ type: z.literal('expired'), at: z.iso.datetime() }),
});

export const jobSchemas = { advance: advanceJobSchema, signal: signalJobSchema } as const;
export type JobName = keyof typeof jobSchemas;
export type AdvanceJob = z.infer<typeof advanceJobSchema>;
export type SignalJob = z.infer<typeof signalJobSchema>;
