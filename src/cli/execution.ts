/**
 * Where runs execute: BullMQ on Redis (production: durable, shared by every replica) or in this
 * process (the demo without Redis). Both take the same job handlers and expose the same Runs.
 */
import type { Redis } from 'ioredis';
import type { Metrics } from '../adapters/metrics.js';
import { closeRedis, createRedis } from '../adapters/redis.js';
import type { AppConfig } from '../config.js';
import { withDeadline } from '../core/deadline.js';
import { InProcessRuns } from '../engine/in-process.js';
import type { Runs } from '../engine/jobs.js';
import { RunQueue } from '../engine/queue.js';
import { createRunWorker, type JobHandlers } from '../engine/worker.js';
import type { Logger } from '../log.js';
import type { Clock } from '../ports/clock.js';
import { CLOSE_STEP_MS, closeStep } from './shutdown.js';

export type ExecutorKind = 'bullmq' | 'in-process';

export interface Execution {
  kind: ExecutorKind;
  /** Absent in worker-only processes, which never enqueue. */
  runs?: Runs;
  /** Readiness checks this executor contributes (Redis reachability). */
  checks(): Promise<Record<string, string>>;
  /** Extra Prometheus text (the queue's own metrics). */
  metricsText(): Promise<string>;
  /** Stop taking work; running jobs get `graceMs` to finish, then are handed back. */
  stop(graceMs: number): Promise<void>;
}

const REDIS_PING_DEADLINE_MS = 1_000;

async function redisCheck(redis: Redis): Promise<string> {
  try {
    await withDeadline(redis.ping(), REDIS_PING_DEADLINE_MS, () => new Error('timeout'));
    return 'ok';
  } catch (error) {
    return `unreachable: ${(error as Error).message}`;
  }
}

export interface ExecutionOptions {
  kind: ExecutorKind;
  /** Enqueue side (the bot); a worker-only process leaves it off. */
  producer: boolean;
  config: AppConfig;
  handlers: JobHandlers;
  metrics: Metrics;
  clock: Clock;
  logger: Logger;
}

export function startExecution(options: ExecutionOptions): Execution {
  const { config, logger, metrics } = options;
  if (options.kind === 'in-process') {
    const runs = new InProcessRuns(options.handlers, options.clock, logger);
    return {
      kind: 'in-process',
      runs,
      checks: () => Promise.resolve({}),
      metricsText: () => Promise.resolve(''),
      stop: (graceMs) => runs.close(graceMs),
    };
  }

  const workerRedis = createRedis(config.redisUrl, 'worker', logger);
  const worker = createRunWorker({
    connection: workerRedis,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    logger,
    handlers: options.handlers,
  });
  worker.on('completed', (job) => metrics.jobs.inc({ job: job.name, outcome: 'completed' }));
  worker.on('failed', (job) =>
    metrics.jobs.inc({ job: job?.name ?? 'unknown', outcome: 'failed' }),
  );
  const producerRedis = options.producer
    ? createRedis(config.redisUrl, 'producer', logger)
    : undefined;
  const queue =
    producerRedis === undefined
      ? undefined
      : new RunQueue(producerRedis, config.queuePrefix, options.clock, (error) =>
          logger.debug({ err: error }, 'queue error'),
        );

  return {
    kind: 'bullmq',
    ...(queue === undefined ? {} : { runs: queue }),
    checks: async () => ({ redis: await redisCheck(workerRedis) }),
    metricsText: async () => (queue === undefined ? '' : await queue.metrics().catch(() => '')),
    stop: async (graceMs) => {
      // Active jobs get the grace period to finish; after it they are handed back (they become
      // stalled and another worker resumes them from their saved progress).
      if (!(await closeStep(logger, 'worker', graceMs, () => worker.close()))) {
        logger.warn({ graceMs }, 'jobs still running at the deadline; handing them back');
        await closeStep(logger, 'worker (forced)', CLOSE_STEP_MS, () => worker.close(true));
      }
      await closeStep(logger, 'worker redis', CLOSE_STEP_MS, () => closeRedis(workerRedis));
      if (queue !== undefined) await closeStep(logger, 'queue', CLOSE_STEP_MS, () => queue.close());
      if (producerRedis !== undefined) {
        await closeStep(logger, 'producer redis', CLOSE_STEP_MS, () => closeRedis(producerRedis));
      }
    },
  };
}
