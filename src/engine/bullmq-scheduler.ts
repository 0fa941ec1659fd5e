/**
 * Steps and timed signals as BullMQ jobs. Job ids carry the run's version, so asking twice for
 * the same step of the same state adds one job, and a job left from an older state finds the run
 * moved on and does nothing. A worker that dies mid-step leaves a stalled job BullMQ hands to
 * another worker; a process that starts also resumes runs nobody is working on. The drift
 * guard's per-cluster job schedulers are set up here too.
 */
import type { JobsOptions, Queue } from 'bullmq';
import type { RunEvent } from '../core/run-events.js';
import { AppError } from '../errors.js';
import type { StepScheduler } from './run-engine.js';
import {
  DRIFT_CHECK_JOB,
  DRIFT_SCHEDULER_PREFIX,
  type AdvanceJob,
  type DriftCheckJob,
  type SignalJob,
} from './jobs.js';

const DAY_SECONDS = 24 * 60 * 60;
const retention: JobsOptions = {
  removeOnComplete: { age: DAY_SECONDS, count: 1_000 },
  removeOnFail: { age: 7 * DAY_SECONDS },
};

function unavailable(cause: unknown): AppError {
  return new AppError('QUEUE_UNAVAILABLE', 'The job queue is not reachable.', {
    remedy: 'Check Redis (REDIS_URL) and the bot’s /readyz; the run resumes when Redis answers.',
    retryable: true,
    cause,
  });
}

export class BullmqScheduler implements StepScheduler {
  constructor(private readonly queue: Queue) {}

  async execute(runId: string, stepId: string, version: number, delayMs: number): Promise<void> {
    const data: AdvanceJob = { runId, stepId };
    try {
      // A few attempts cover a crash of the engine itself (Redis blips); step errors are the
      // run's own business (transition retries them).
      await this.queue.add('advance', data, {
        ...retention,
        jobId: `${runId}.${stepId}.v${version}`,
        delay: delayMs,
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
      });
    } catch (error) {
      throw unavailable(error);
    }
  }

  async signalAt(runId: string, event: RunEvent, at: Date): Promise<void> {
    if (event.type !== 'expired') throw new Error(`only expiry is scheduled, not ${event.type}`);
    const data: SignalJob = { runId, event: { type: 'expired', at: event.at } };
    try {
      await this.queue.add('signal', data, {
        ...retention,
        jobId: `${runId}.expire.${Date.parse(event.at)}`,
        delay: Math.max(0, at.getTime() - Date.now()),
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
      });
    } catch (error) {
      throw unavailable(error);
    }
  }
}

export interface DriftSchedule {
  cluster: string;
  everyMinutes: number;
}

/**
 * One BullMQ job scheduler per cluster whose drift guard is on (`drift.<cluster>`, a
 * `drift-check` job every `everyMinutes`), upserted at start so every replica agrees; schedulers
 * of clusters no longer configured (or turned off) are removed. Resolves to the clusters whose
 * schedulers were removed.
 */
export async function syncDriftSchedulers(
  queue: Queue,
  wanted: readonly DriftSchedule[],
): Promise<string[]> {
  try {
    for (const { cluster, everyMinutes } of wanted) {
      const data: DriftCheckJob = { cluster };
      await queue.upsertJobScheduler(
        `${DRIFT_SCHEDULER_PREFIX}${cluster}`,
        { every: everyMinutes * 60_000 },
        { name: DRIFT_CHECK_JOB, data, opts: { ...retention, attempts: 1 } },
      );
    }
    const keep = new Set(wanted.map((w) => `${DRIFT_SCHEDULER_PREFIX}${w.cluster}`));
    const removed: string[] = [];
    for (const scheduler of await queue.getJobSchedulers(0, -1)) {
      const id = scheduler.id ?? scheduler.key;
      if (!id.startsWith(DRIFT_SCHEDULER_PREFIX) || keep.has(id)) continue;
      await queue.removeJobScheduler(id);
      removed.push(id.slice(DRIFT_SCHEDULER_PREFIX.length));
    }
    return removed;
  } catch (error) {
    throw unavailable(error);
  }
}
