/**
 * The composition root: wires real adapters into the bot and the worker. `proxy-migrate bot`
 * and `proxy-migrate worker` call these; so do the integration tests, with overrides that point
 * Slack and Kubernetes at the fakes and the twin.
 */
import type { Server } from 'node:http';
import type { WebClientOptions } from '@slack/web-api';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { KubeClusterDirectory } from '../adapters/kubernetes/directory.js';
import type { KubeClusterOptions } from '../adapters/kubernetes/cluster-client.js';
import {
  closeServer,
  createHttpServer,
  listen,
  type ReadinessReport,
} from '../adapters/http/server.js';
import { createMetrics, type Metrics } from '../adapters/metrics.js';
import { closeRedis, createRedis } from '../adapters/redis.js';
import {
  createBoltApp,
  createWebClient,
  verifySlackAuth,
  type SlackIdentity,
} from '../adapters/slack/bolt-app.js';
import { SlackChat } from '../adapters/slack/chat.js';
import { verbs } from '../commands/index.js';
import { registerCommands } from '../commands/register.js';
import type { AppConfig, SlackConfig } from '../config.js';
import { withDeadline } from '../core/deadline.js';
import { runPreflightJob } from '../engine/preflight-job.js';
import { RunQueue } from '../engine/queue.js';
import { createRunWorker } from '../engine/worker.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { ClusterDirectory } from '../ports/cluster.js';

export interface RuntimeOverrides {
  /** Extra Web API client options (tests: no retries against the fake Slack). */
  webClientOptions?: WebClientOptions;
  kube?: KubeClusterOptions;
  clusters?: ClusterDirectory;
  clock?: Clock;
  /** Interface to listen on; default all interfaces, tests use 127.0.0.1. */
  host?: string;
}

export interface RunningProcess {
  port: number;
  metrics: Metrics;
  /** Graceful stop: readiness off, no new work, active jobs finish (or are handed back), close. */
  stop(): Promise<void>;
}

const REDIS_PING_DEADLINE_MS = 1_000;
/** Each shutdown step besides the jobs' grace period gets this long before it is cut short. */
const CLOSE_STEP_MS = 3_000;

/** Runs one shutdown step under a deadline; resolves false (and logs) when it had to give up. */
async function closeStep(
  logger: Logger,
  what: string,
  ms: number,
  close: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await withDeadline(close(), ms, () => new Error(`${what} did not close within ${ms} ms`));
    return true;
  } catch (error) {
    logger.warn({ err: error, step: what }, 'shutdown step cut short');
    return false;
  }
}

async function stopServer(server: Server, logger: Logger): Promise<void> {
  if (!(await closeStep(logger, 'http server', CLOSE_STEP_MS, () => closeServer(server)))) {
    server.closeAllConnections();
  }
}
const SLACK_AUTH_RECHECK_MS = 5 * 60_000;

function requireSlack(config: AppConfig): SlackConfig {
  if (config.slack === undefined) {
    throw new AppError('CONFIG_INVALID', 'SLACK_BOT_TOKEN is not set.', {
      remedy: 'Set SLACK_BOT_TOKEN to the bot token (xoxb-…) of the Slack app.',
    });
  }
  return config.slack;
}

async function redisCheck(redis: Redis): Promise<string> {
  try {
    await withDeadline(redis.ping(), REDIS_PING_DEADLINE_MS, () => new Error('timeout'));
    return 'ok';
  } catch (error) {
    return `unreachable: ${(error as Error).message}`;
  }
}

interface Core {
  metrics: Metrics;
  workerRedis: Redis;
  worker: Worker;
  chat: SlackChat;
  slackState: { ok: boolean; detail: string; identity?: SlackIdentity };
  stopping: { value: boolean };
  readiness: () => Promise<ReadinessReport>;
  stopCore: () => Promise<void>;
}

/** What bot and worker share: Slack client, Redis, the worker and its job handlers, readiness. */
async function startCore(
  config: AppConfig,
  logger: Logger,
  overrides: RuntimeOverrides,
): Promise<Core> {
  const slack = requireSlack(config);
  const metrics = createMetrics();
  const client = createWebClient(slack, logger, overrides.webClientOptions);
  const identity = await verifySlackAuth(client);
  logger.info(
    { team: identity.team, teamId: identity.teamId, botUserId: identity.botUserId },
    'slack auth ok',
  );
  const slackState: Core['slackState'] = { ok: true, detail: 'ok', identity };
  const recheck = setInterval(() => {
    verifySlackAuth(client).then(
      () => Object.assign(slackState, { ok: true, detail: 'ok' }),
      (error: unknown) =>
        Object.assign(slackState, { ok: false, detail: (error as Error).message }),
    );
  }, SLACK_AUTH_RECHECK_MS);
  recheck.unref();

  const chat = new SlackChat(client);
  const clusters = overrides.clusters ?? new KubeClusterDirectory(config, logger, overrides.kube);
  const clock = overrides.clock ?? systemClock;
  const workerRedis = createRedis(config.redisUrl, 'worker', logger);
  const worker = createRunWorker({
    connection: workerRedis,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    logger,
    handlers: {
      preflight: (job) => runPreflightJob({ config, clusters, chat, clock, logger }, job),
    },
  });
  worker.on('completed', (job) => metrics.jobs.inc({ job: job.name, outcome: 'completed' }));
  worker.on('failed', (job) =>
    metrics.jobs.inc({ job: job?.name ?? 'unknown', outcome: 'failed' }),
  );
  const stopping = { value: false };

  return {
    metrics,
    workerRedis,
    worker,
    chat,
    slackState,
    stopping,
    readiness: async () => {
      const checks = {
        redis: await redisCheck(workerRedis),
        slack: slackState.ok ? 'ok' : `auth failed: ${slackState.detail}`,
        ...(stopping.value ? { process: 'shutting down' } : {}),
      };
      return { ready: Object.values(checks).every((v) => v === 'ok'), checks };
    },
    stopCore: async () => {
      clearInterval(recheck);
      // Active jobs get the grace period to finish; after it they are handed back (they become
      // stalled and another worker resumes them from their saved progress).
      const finished = await closeStep(logger, 'worker', config.shutdownGraceMs, () =>
        worker.close(),
      );
      if (!finished) {
        logger.warn(
          { graceMs: config.shutdownGraceMs },
          'jobs still running at the deadline; handing them back',
        );
        await closeStep(logger, 'worker (forced)', CLOSE_STEP_MS, () => worker.close(true));
      }
      await closeStep(logger, 'worker redis', CLOSE_STEP_MS, () => closeRedis(workerRedis));
    },
  };
}

async function serve(
  server: Server,
  config: AppConfig,
  overrides: RuntimeOverrides,
): Promise<number> {
  return listen(server, config.port, overrides.host);
}

/** `proxy-migrate bot`: the Bolt app and a worker in one process, on one HTTP port. */
export async function startBot(
  config: AppConfig,
  logger: Logger,
  overrides: RuntimeOverrides = {},
): Promise<RunningProcess> {
  const slack = requireSlack(config);
  const core = await startCore(config, logger, overrides);
  const producerRedis = createRedis(config.redisUrl, 'producer', logger);
  const runs = new RunQueue(
    producerRedis,
    config.queuePrefix,
    overrides.clock ?? systemClock,
    (error) => logger.debug({ err: error }, 'queue error'),
  );
  const bolt = createBoltApp(slack, core.slackState.identity!, logger, overrides.webClientOptions);
  bolt.app.error((error) => {
    logger.error({ err: error }, 'unhandled error in a Slack listener');
    return Promise.resolve();
  });
  registerCommands(bolt.app, { verbs, services: { config, runs }, logger, metrics: core.metrics });

  const server = createHttpServer({
    ...(bolt.listener === undefined ? {} : { slackListener: bolt.listener }),
    readiness: core.readiness,
    metrics: async () => ({
      contentType: core.metrics.registry.contentType,
      body: `${await core.metrics.registry.metrics()}\n${await runs.metrics().catch(() => '')}`,
    }),
    logger,
  });
  const port = await serve(server, config, overrides);
  if (bolt.socketMode) await bolt.app.start();
  logger.info({ port, mode: bolt.socketMode ? 'socket' : 'http' }, 'bot started');

  return {
    port,
    metrics: core.metrics,
    stop: async () => {
      core.stopping.value = true;
      logger.info('stopping: no new Slack requests or jobs');
      if (bolt.socketMode) await bolt.app.stop();
      await stopServer(server, logger);
      await core.stopCore();
      await closeStep(logger, 'queue', CLOSE_STEP_MS, () => runs.close());
      await closeStep(logger, 'producer redis', CLOSE_STEP_MS, () => closeRedis(producerRedis));
      logger.info('stopped');
    },
  };
}

/** `proxy-migrate worker`: workers only, with health and metrics on PORT. */
export async function startWorker(
  config: AppConfig,
  logger: Logger,
  overrides: RuntimeOverrides = {},
): Promise<RunningProcess> {
  const core = await startCore(config, logger, overrides);
  const server = createHttpServer({
    readiness: core.readiness,
    metrics: async () => ({
      contentType: core.metrics.registry.contentType,
      body: await core.metrics.registry.metrics(),
    }),
    logger,
  });
  const port = await serve(server, config, overrides);
  logger.info({ port }, 'worker started');
  return {
    port,
    metrics: core.metrics,
    stop: async () => {
      core.stopping.value = true;
      await core.stopCore();
      await stopServer(server, logger);
      logger.info('stopped');
    },
  };
}
