/**
 * Where runs execute: BullMQ on Redis (production: durable, shared by every replica; run state
 * in Redis) or in this process (the demo without Redis; run state in memory). Both drive the
 * same engine, runbooks and step executors, and expose the same Runs.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Metrics } from '../adapters/metrics.js';
import { closeRedis, createRedis } from '../adapters/redis.js';
import { MemoryAuditLog } from '../adapters/audit/memory.js';
import { RedisAuditLog } from '../adapters/audit/redis.js';
import { MemoryDriftStore } from '../adapters/drift-store/memory.js';
import { RedisDriftStore } from '../adapters/drift-store/redis.js';
import { MemoryRunStore } from '../adapters/run-store/memory.js';
import { RedisRunStore } from '../adapters/run-store/redis.js';
import type { AppConfig, ClusterConfig } from '../config.js';
import { withDeadline } from '../core/deadline.js';
import { BullmqScheduler, syncDriftSchedulers } from '../engine/bullmq-scheduler.js';
import { DriftGuard, driftGuardSetting, type DriftCheckResult } from '../engine/drift-guard.js';
import { RUNS_QUEUE } from '../engine/jobs.js';
import { LocalScheduler } from '../engine/local-scheduler.js';
import type { RunObserver } from '../engine/observer.js';
import { ownerIdentity } from '../engine/owner.js';
import { RunEngine, type StepScheduler } from '../engine/run-engine.js';
import type { RunEnvironment } from '../engine/run-environment.js';
import { Runs } from '../engine/runs.js';
import { executors } from '../engine/steps/index.js';
import { createRunWorker } from '../engine/worker.js';
import type { Logger } from '../log.js';
import type { RunState } from '../core/run-state.js';
import type { ChatPort } from '../ports/chat.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterDirectory } from '../ports/cluster.js';
import type { AuditLog } from '../ports/audit-log.js';
import type { DriftStore } from '../ports/drift-store.js';
import { AuditRunObserver } from '../engine/observers/audit.js';
import type { RunStore } from '../ports/run-store.js';
import { runbooks } from '../runbooks/index.js';
import { CLOSE_STEP_MS, closeStep } from './shutdown.js';

export type ExecutorKind = 'bullmq' | 'in-process';

export interface Execution {
  kind: ExecutorKind;
  runs: Runs;
  /** Readiness checks this executor contributes (Redis reachability). */
  checks(): Promise<Record<string, string>>;
  /** Extra Prometheus text (the queue's own metrics). */
  metricsText(): Promise<string>;
  /** Resume runs nobody is working on (after a crash or a restart); resolves to their ids. */
  resume(reason: string, filter?: (state: RunState) => boolean): Promise<string[]>;
  /** Stop taking work; running steps get `graceMs` to finish, then are handed back. */
  stop(graceMs: number): Promise<void>;
  /** The drift guard, when the process talks to Slack. */
  drift?: DriftControl;
  /** The audit trail, when recorded. */
  audit?: AuditLog;
}

export interface DriftControl {
  /** Schedules every cluster's check (BullMQ job schedulers, or timers in this process). */
  start(): Promise<void>;
  /** Runs one cluster's check now, as its scheduled job would. */
  check(cluster: string): Promise<DriftCheckResult>;
  /** What the checks keep: the repair button reads its drift here. */
  store: DriftStore;
}

/** What the drift guard needs besides the executor's own run store. */
export interface DriftGuardDeps {
  clusters: readonly ClusterConfig[];
  directory: ClusterDirectory;
  chat: ChatPort;
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
  /** Redis, prefix and concurrency: needed for BullMQ only. */
  config?: Pick<AppConfig, 'redisUrl' | 'queuePrefix' | 'workerConcurrency'>;
  environment: RunEnvironment;
  observers: readonly RunObserver[];
  metrics: Metrics;
  clock: Clock;
  logger: Logger;
  /** Another store for the in-process executor (the terminal's files); default memory. */
  store?: RunStore;
  /** Turns the drift guard on (bot and worker); the terminal has none. */
  drift?: DriftGuardDeps;
  /**
   * Records the audit trail: with BullMQ in Redis, in this process otherwise, for this long;
   * `log` overrides where (the terminal's Redis).
   */
  audit?: { retentionMs: number; log?: AuditLog };
}

function engineFor(
  options: ExecutionOptions,
  store: RunStore,
  scheduler: StepScheduler,
  audit?: AuditLog,
): RunEngine {
  return new RunEngine({
    store,
    scheduler,
    runbooks,
    executors,
    environment: options.environment,
    observers:
      audit === undefined
        ? options.observers
        : [...options.observers, new AuditRunObserver(audit, options.logger)],
    clock: options.clock,
    logger: options.logger,
    owner: ownerIdentity(),
  });
}

function driftGuard(
  options: ExecutionOptions,
  runs: RunStore,
  state: DriftStore,
): DriftGuard | undefined {
  const deps = options.drift;
  if (deps === undefined) return undefined;
  return new DriftGuard({ ...deps, runs, state, clock: options.clock, logger: options.logger });
}

/** Clusters whose guard is on, with their interval; the others are logged with the reason. */
function driftSchedule(
  guard: DriftGuard,
  logger: Logger,
): { cluster: string; everyMinutes: number }[] {
  return guard.clusters.flatMap((c) => {
    const setting = driftGuardSetting(c);
    if (setting.on) return [{ cluster: c.name, everyMinutes: setting.everyMinutes }];
    logger.info({ cluster: c.name, reason: setting.reason }, 'drift guard off for this cluster');
    return [];
  });
}

export function startExecution(options: ExecutionOptions): Execution {
  const { logger, metrics } = options;
  const resume = async (
    engine: RunEngine,
    reason: string,
    filter?: (state: RunState) => boolean,
  ): Promise<string[]> => {
    // The bot and its workers talk to the runs' Slack channels: they announce runs a killed
    // process ended without telling anyone. A terminal (in process) has no Slack to do it with.
    const resumed = await engine.resume(reason, filter, { announce: options.kind === 'bullmq' });
    if (resumed.length > 0) {
      logger.info({ runs: resumed.map((r) => r.id), reason }, 'resumed unfinished runs');
    }
    return resumed.map((r) => r.id);
  };
  if (options.kind === 'in-process') {
    const store = options.store ?? new MemoryRunStore();
    const scheduler = new LocalScheduler(logger);
    const audit =
      options.audit === undefined
        ? undefined
        : (options.audit.log ?? new MemoryAuditLog(options.audit.retentionMs));
    const engine = engineFor(options, store, scheduler, audit);
    scheduler.bind(engine);
    const driftStore = new MemoryDriftStore();
    const guard = driftGuard(options, store, driftStore);
    const timers: NodeJS.Timeout[] = [];
    return {
      ...(guard === undefined
        ? {}
        : {
            drift: {
              store: driftStore,
              check: (cluster) => guard.check(cluster),
              // No job scheduler without Redis: a timer per cluster, state in memory (a restart
              // posts a drift that still holds once more).
              start: () => {
                const wanted = driftSchedule(guard, logger);
                for (const { cluster, everyMinutes } of wanted) {
                  const timer = setInterval(() => {
                    guard
                      .check(cluster)
                      .catch((error: unknown) =>
                        logger.warn({ err: error, cluster }, 'drift check failed'),
                      );
                  }, everyMinutes * 60_000);
                  timer.unref();
                  timers.push(timer);
                }
                logger.info(
                  { clusters: wanted.map((w) => w.cluster) },
                  'drift guard: in-process timers (no Redis), state in memory',
                );
                return Promise.resolve();
              },
            },
          }),
      kind: 'in-process',
      ...(audit === undefined ? {} : { audit }),
      runs: new Runs(engine, store, () => scheduler.idle()),
      checks: () => Promise.resolve({}),
      metricsText: () => Promise.resolve(''),
      resume: (reason, filter) => resume(engine, reason, filter),
      stop: async (graceMs) => {
        for (const timer of timers) clearInterval(timer);
        engine.stop();
        await scheduler.close(graceMs);
        await options.environment.close();
      },
    };
  }

  const config = options.config;
  if (config === undefined) throw new Error('the BullMQ executor needs the Redis configuration');
  // The store and the queue answer on the request path: fail fast when Redis is down. The
  // worker blocks on Redis and retries forever.
  const storeRedis = createRedis(config.redisUrl, 'producer', logger);
  const workerRedis = createRedis(config.redisUrl, 'worker', logger);
  const queue = new Queue(RUNS_QUEUE, { connection: storeRedis, prefix: config.queuePrefix });
  queue.on('error', (error) => logger.debug({ err: error }, 'queue error'));
  const store = new RedisRunStore(storeRedis, config.queuePrefix);
  const audit =
    options.audit === undefined
      ? undefined
      : (options.audit.log ??
        new RedisAuditLog(storeRedis, config.queuePrefix, options.audit.retentionMs));
  const engine = engineFor(options, store, new BullmqScheduler(queue), audit);
  const driftStore = new RedisDriftStore(storeRedis, config.queuePrefix);
  const guard = driftGuard(options, store, driftStore);
  const worker = createRunWorker({
    connection: workerRedis,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    logger,
    engine,
    ...(guard === undefined ? {} : { driftCheck: (cluster: string) => guard.check(cluster) }),
  });
  worker.on('completed', (job) => metrics.jobs.inc({ job: job.name, outcome: 'completed' }));
  worker.on('failed', (job) =>
    metrics.jobs.inc({ job: job?.name ?? 'unknown', outcome: 'failed' }),
  );

  return {
    ...(guard === undefined
      ? {}
      : {
          drift: {
            store: driftStore,
            check: (cluster) => guard.check(cluster),
            start: async () => {
              const wanted = driftSchedule(guard, logger);
              const removed = await syncDriftSchedulers(queue, wanted);
              // Nothing the guard kept outlives its cluster's guard.
              const on = new Set(wanted.map((w) => w.cluster));
              const forgotten = [...new Set([...removed, ...guard.clusters.map((c) => c.name)])];
              await Promise.all(forgotten.filter((c) => !on.has(c)).map((c) => guard.forget(c)));
              logger.info(
                { clusters: wanted.map((w) => w.cluster), removed },
                'drift guard: BullMQ job schedulers',
              );
            },
          },
        }),
    kind: 'bullmq',
    ...(audit === undefined ? {} : { audit }),
    runs: new Runs(engine, store),
    checks: async () => ({ redis: await redisCheck(workerRedis) }),
    metricsText: async () => await queue.exportPrometheusMetrics().catch(() => ''),
    resume: (reason, filter) => resume(engine, reason, filter),
    stop: async (graceMs) => {
      // Steps in flight get the grace period to finish; after it they are handed back (their
      // jobs stall and another worker, or this one's successor, resumes the run).
      if (!(await closeStep(logger, 'worker', graceMs, () => worker.close()))) {
        logger.warn({ graceMs }, 'steps still running at the deadline; handing them back');
        engine.stop();
        await closeStep(logger, 'worker (forced)', CLOSE_STEP_MS, () => worker.close(true));
      }
      await closeStep(logger, 'run environment', CLOSE_STEP_MS, () => options.environment.close());
      await closeStep(logger, 'worker redis', CLOSE_STEP_MS, () => closeRedis(workerRedis));
      await closeStep(logger, 'queue', CLOSE_STEP_MS, () => queue.close());
      await closeStep(logger, 'store redis', CLOSE_STEP_MS, () => closeRedis(storeRedis));
    },
  };
}
