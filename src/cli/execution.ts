/**
 * Where runs execute: BullMQ on Redis (production: durable, shared by every replica; run state
 * in Redis) or in this process (the demo without Redis; run state in memory). Both drive the
 * same engine, runbooks and step executors, and expose the same Runs.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Metrics } from '../adapters/metrics.js';
import { cachedQueueMetrics } from '../adapters/queue-metrics.js';
import { closeRedis, createRedis, redisConnected, watchDown } from '../adapters/redis.js';
import { MemoryAuditLog } from '../adapters/audit/memory.js';
import { RedisAuditLog } from '../adapters/audit/redis.js';
import { MemoryDriftStore } from '../adapters/drift-store/memory.js';
import { RedisDriftStore } from '../adapters/drift-store/redis.js';
import { MemoryRunClaims } from '../adapters/run-store/memory-claims.js';
import { MemoryRunStore } from '../adapters/run-store/memory.js';
import { RedisRunClaims } from '../adapters/run-store/redis-claims.js';
import { RedisRunStore } from '../adapters/run-store/redis.js';
import type { AppConfig, ClusterConfig } from '../config.js';
import { withDeadline } from '../core/deadline.js';
import { BullmqScheduler, syncDriftSchedulers } from '../engine/bullmq-scheduler.js';
import { DriftGuard, driftGuardSetting, type DriftCheckResult } from '../engine/drift-guard.js';
import { RUNS_QUEUE } from '../engine/jobs.js';
import { LocalScheduler } from '../engine/local-scheduler.js';
import type { RunObserver } from '../engine/observer.js';
import { ownerIdentity } from '../engine/owner.js';
import { foregroundFirstStore } from '../engine/foreground-first.js';
import { RunEngine, type StepScheduler } from '../engine/run-engine.js';
import type { RunEnvironment } from '../engine/run-environment.js';
import { Runs } from '../engine/runs.js';
import { executors } from '../engine/steps/index.js';
import { createRunWorker } from '../engine/worker.js';
import type { Logger } from '../log.js';
import type { RunState } from '../core/run-state.js';
import type { ChatPort } from '../ports/chat.js';
import type { Clock } from '../ports/clock.js';
import type { Foreground } from '../ports/foreground.js';
import type { ClusterDirectory } from '../ports/cluster.js';
import type { AuditLog } from '../ports/audit-log.js';
import type { DriftStore } from '../ports/drift-store.js';
import { AuditRunObserver } from '../engine/observers/audit.js';
import { MetricsRunObserver } from '../engine/observers/metrics.js';
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

/**
 * At shutdown, how long Redis may be down before the steps in flight stop being waited for:
 * without Redis no step can save its progress or keep its job's lock, so the grace period would
 * only delay the exit. Their jobs are handed back when Redis answers and the runs resume from
 * their last saved step (as after a crash).
 */
export const SHUTDOWN_REDIS_DOWN_MS = 1_000;
const WITHOUT_REDIS_CLOSE_MS = 500;

/** `ok`, or why not: a connection that is down is reported at once, without sending anything. */
async function redisCheck(redis: Redis): Promise<string> {
  if (!redisConnected(redis)) return `unreachable: connection ${redis.status}`;
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
  /** The worker takes its next job only when no Slack request waits for its ack (bounded). */
  foreground?: Foreground;
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
    observers: [
      ...options.observers,
      new MetricsRunObserver(options.metrics),
      ...(audit === undefined ? [] : [new AuditRunObserver(audit, options.logger)]),
    ],
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
  return new DriftGuard({
    ...deps,
    runs,
    state,
    clock: options.clock,
    logger: options.logger,
    metrics: options.metrics,
  });
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
      runs: new Runs(engine, store, {
        idle: () => scheduler.idle(),
        claims: new MemoryRunClaims(store),
      }),
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
  const engine = engineFor(
    options,
    options.foreground === undefined ? store : foregroundFirstStore(store, options.foreground),
    new BullmqScheduler(queue),
    audit,
  );
  const driftStore = new RedisDriftStore(storeRedis, config.queuePrefix);
  const guard = driftGuard(options, store, driftStore);
  // Concurrency 0: a bot that only answers Slack and enqueues; worker processes run the jobs.
  const worker =
    config.workerConcurrency === 0
      ? undefined
      : createRunWorker({
          connection: workerRedis,
          prefix: config.queuePrefix,
          concurrency: config.workerConcurrency,
          logger,
          engine,
          ...(guard === undefined ? {} : { driftCheck: (cluster: string) => guard.check(cluster) }),
          ...(options.foreground === undefined
            ? {}
            : { beforeJob: () => options.foreground?.quiet() ?? Promise.resolve() }),
        });
  const queueMetrics = cachedQueueMetrics(() => queue.exportPrometheusMetrics());
  worker?.on('completed', (job) =>
    metrics.queueJobs.inc({ queue_job: job.name, outcome: 'completed' }),
  );
  worker?.on('failed', (job) =>
    metrics.queueJobs.inc({ queue_job: job?.name ?? 'unknown', outcome: 'failed' }),
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
    runs: new Runs(engine, store, { claims: new RedisRunClaims(storeRedis, config.queuePrefix) }),
    checks: async () => {
      // Both connections: the store's serves the Slack path, the worker's takes the jobs.
      const [store, work] = await Promise.all([redisCheck(storeRedis), redisCheck(workerRedis)]);
      return { redis: store === 'ok' ? work : store };
    },
    metricsText: queueMetrics,
    resume: (reason, filter) => resume(engine, reason, filter),
    stop: async (graceMs) => {
      // Steps in flight get the grace period to finish; after it they are handed back (their
      // jobs stall and another worker, or this one's successor, resumes the run). With Redis
      // down they are not waited for (SHUTDOWN_REDIS_DOWN_MS).
      const redisDown = watchDown(workerRedis, SHUTDOWN_REDIS_DOWN_MS);
      let withoutRedis = false;
      const closed =
        worker === undefined ||
        (await closeStep(logger, 'worker', graceMs, () =>
          Promise.race([
            worker.close(),
            redisDown.down.then(() => {
              withoutRedis = true;
              throw new Error('Redis is down: no step in flight can save its progress');
            }),
          ]),
        ));
      redisDown.cancel();
      if (!closed && worker !== undefined) {
        logger.warn({ graceMs }, 'steps still running at the deadline; handing them back');
        engine.stop();
        // BullMQ's close (asked once, it is not asked again with force) waits on its connections
        // and its fetch loop's retry delay: without Redis the connections are dropped and the
        // loop, which can fetch nothing more, is given only a moment.
        const forcedMs = withoutRedis ? WITHOUT_REDIS_CLOSE_MS : CLOSE_STEP_MS;
        await closeStep(logger, 'worker (forced)', forcedMs, async () => {
          if (withoutRedis) {
            workerRedis.disconnect();
            await worker.disconnect();
          }
          await worker.close(true);
        });
      }
      await closeStep(logger, 'run environment', CLOSE_STEP_MS, () => options.environment.close());
      await closeStep(logger, 'worker redis', CLOSE_STEP_MS, () => closeRedis(workerRedis));
      await closeStep(logger, 'queue', CLOSE_STEP_MS, () => queue.close());
      await closeStep(logger, 'store redis', CLOSE_STEP_MS, () => closeRedis(storeRedis));
    },
  };
}
