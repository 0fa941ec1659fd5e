/**
 * The consumer side: a BullMQ worker that validates each job's data, hands it to its handler
 * through a {@link JobContext}, and turns non-retryable errors into BullMQ's UnrecoverableError
 * so they fail at once instead of burning retries.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppError, asAppError } from '../errors.js';
import type { Logger } from '../log.js';
import { RUNS_QUEUE, jobSchemas, type JobContext, type JobData, type JobName } from './jobs.js';

export type JobHandlers = { [N in JobName]: (job: JobContext<JobData<N>>) => Promise<unknown> };

export interface RunWorkerOptions {
  connection: Redis;
  prefix: string;
  concurrency: number;
  handlers: JobHandlers;
  logger: Logger;
}

function isJobName(name: string): name is JobName {
  return Object.hasOwn(jobSchemas, name);
}

function contextFor<T>(job: Job, data: T): JobContext<T> {
  return {
    data,
    attempt: job.attemptsMade + 1,
    maxAttempts: job.opts.attempts ?? 1,
    save: async (next) => {
      await job.updateData(next);
    },
  };
}

async function dispatch(job: Job, handlers: JobHandlers): Promise<unknown> {
  const name = job.name;
  if (!isJobName(name)) {
    throw new AppError('JOB_INVALID', `Unknown job "${name}".`, {
      remedy: 'Run the same proxy-migrate version for bot and workers.',
    });
  }
  switch (name) {
    case 'preflight': {
      const parsed = jobSchemas.preflight.safeParse(job.data);
      if (!parsed.success) {
        throw new AppError('JOB_INVALID', `Job ${job.id ?? '?'} has invalid data.`, {
          remedy: 'Run the same proxy-migrate version for bot and workers.',
          details: { issues: parsed.error.issues.map((i) => i.path.join('.')) },
        });
      }
      return handlers.preflight(contextFor(job, parsed.data));
    }
  }
}

export function createRunWorker(options: RunWorkerOptions): Worker {
  const worker = new Worker(
    RUNS_QUEUE,
    async (job: Job) => {
      try {
        return await dispatch(job, options.handlers);
      } catch (error) {
        const appError = asAppError(error);
        const message = `${appError.code}: ${appError.message}`;
        throw appError.retryable
          ? new Error(message, { cause: appError })
          : Object.assign(new UnrecoverableError(message), { cause: appError });
      }
    },
    { connection: options.connection, prefix: options.prefix, concurrency: options.concurrency },
  );
  worker.on('failed', (job, error) => {
    options.logger.error(
      { jobId: job?.id, job: job?.name, attempt: job?.attemptsMade, err: error },
      'job failed',
    );
  });
  worker.on('error', (error) => options.logger.error({ err: error }, 'worker error'));
  return worker;
}
