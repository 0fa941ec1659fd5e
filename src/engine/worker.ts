/**
 * The consumer side: a BullMQ worker whose jobs advance runs by one step or deliver their timed
 * signals, through the engine, or check a cluster for drift. Bad job data fails at once (a bot/worker version mismatch).
 */
import { MetricsTime, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { RUNS_QUEUE, jobSchemas } from './jobs.js';
import type { RunEngine } from './run-engine.js';

export interface RunWorkerOptions {
  connection: Redis;
  prefix: string;
  concurrency: number;
  engine: RunEngine;
  logger: Logger;
  /** Runs a cluster's drift check (the `drift-check` job); absent: such jobs do nothing. */
  driftCheck?: (cluster: string) => Promise<unknown>;
  /**
   * Awaited before each job starts: in the bot's process, until the Slack requests of a burst
   * have their acks, so taking the next job never competes with them for the event loop.
   */
  beforeJob?: () => Promise<void>;
}

async function dispatch(job: Job, options: RunWorkerOptions): Promise<void> {
  const { engine } = options;
  if (job.name === 'advance') {
    const parsed = jobSchemas.advance.safeParse(job.data);
    if (parsed.success) return engine.advance(parsed.data.runId, parsed.data.stepId);
  } else if (job.name === 'signal') {
    const parsed = jobSchemas.signal.safeParse(job.data);
    if (parsed.success) {
      await engine.signal(parsed.data.runId, parsed.data.event);
      return;
    }
  } else if (job.name === 'drift-check') {
    const parsed = jobSchemas['drift-check'].safeParse(job.data);
    if (parsed.success) {
      await options.driftCheck?.(parsed.data.cluster);
      return;
    }
  }
  throw new UnrecoverableError(
    `JOB_INVALID: job ${job.id ?? '?'} (${job.name}) is not one this version knows; run the same proxy-migrate version for bot and workers`,
  );
}

/**
 * How often a job may be handed back after its worker died. A handed-back `advance` job resumes
 * its run (engine.advance), so a job dies with its worker at most a couple of times; the limit
 * only stops a job that kills every worker that takes it.
 */
export const MAX_STALLED_COUNT = 5;

export function createRunWorker(options: RunWorkerOptions): Worker {
  const worker = new Worker(
    RUNS_QUEUE,
    async (job: Job) => {
      await options.beforeJob?.();
      return dispatch(job, options);
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      maxStalledCount: MAX_STALLED_COUNT,
      // BullMQ keeps per-minute completed/failed counts only when asked; without them the
      // queue's bullmq_job_completed_total and bullmq_job_failed_total stay at 0.
      metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
    },
  );
  worker.on('failed', (job, error) => {
    options.logger.error(
      { jobId: job?.id, job: job?.name, attempt: job?.attemptsMade, err: error },
      'job failed',
    );
    // A job BullMQ gave up on as stalled must not leave its run stuck at a `running` step.
    const advance = jobSchemas.advance.safeParse(job?.data);
    if (job?.name === 'advance' && advance.success && /stalled/i.test(error.message)) {
      const { runId } = advance.data;
      options.engine
        .resume('its job stalled too often', (s) => s.id === runId)
        .catch((err: unknown) => options.logger.warn({ err, runId }, 'could not resume the run'));
    }
  });
  worker.on('error', (error) => options.logger.error({ err: error }, 'worker error'));
  return worker;
}
