/**
 * The composition root: wires real adapters into the bot and the worker. `proxy-migrate bot`,
 * `worker` and `demo` call these; so do the integration tests, with overrides that point Slack
 * and Kubernetes at the fakes and the twin.
 */
import type { WebClientOptions } from '@slack/web-api';
import { KubeClusterDirectory } from '../adapters/kubernetes/directory.js';
import type { KubeClusterOptions } from '../adapters/kubernetes/cluster-client.js';
import { RequestActivity } from '../adapters/http/request-activity.js';
import { createHttpServer, listen } from '../adapters/http/server.js';
import {
  MemorySeenRequests,
  RedisSeenRequests,
  SharedSeenRequests,
  type SeenRequests,
} from '../adapters/http/seen-requests.js';
import { guardSlackListener } from '../adapters/http/slack-guard.js';
import { closeRedis, createRedis } from '../adapters/redis.js';
import { createMetrics, statusClass, type Metrics } from '../adapters/metrics.js';
import {
  createBoltApp,
  createChatClient,
  createWebClient,
  verifySlackAuth,
} from '../adapters/slack/bolt-app.js';
import type { PacerOptions } from '../adapters/slack/channel-pacer.js';
import { SlackChat } from '../adapters/slack/chat.js';
import { registerUnhandledInteractions } from '../adapters/slack/unhandled-interactions.js';
import { SlackGroupMembers } from '../adapters/slack/user-groups.js';
import { verbs } from '../commands/index.js';
import { registerCommands } from '../commands/register.js';
import type { AppConfig, ClusterConfig, SlackConfig } from '../config.js';
import type { DriftCheckResult } from '../engine/drift-guard.js';
import { LogRunObserver } from '../engine/observers/log.js';
import { SlackRunObserver } from '../engine/observers/slack.js';
import { planHashNow } from '../engine/plan-at-click.js';
import { foregroundFirstChat, foregroundFirstDirectory } from '../engine/foreground-first.js';
import { DefaultRunEnvironment } from '../engine/run-environment.js';
import { registerInteractions } from '../interactions/register.js';
import { messageLink } from '../views/already-running.js';
import type { Runs } from '../engine/runs.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { ClusterDirectory } from '../ports/cluster.js';
import { startExecution, type ExecutorKind } from './execution.js';
import { stopServer } from './shutdown.js';

export interface RuntimeOverrides {
  /** Extra Web API client options (tests: no retries against the fake Slack). */
  webClientOptions?: WebClientOptions;
  kube?: KubeClusterOptions;
  clusters?: ClusterDirectory;
  clock?: Clock;
  /** Interface to listen on; default all interfaces, tests use 127.0.0.1. */
  host?: string;
  /** BullMQ on Redis (default) or in this process (the demo without Redis). */
  executor?: ExecutorKind;
  /** Slack writes per channel (default about one a second: Slack's own limit). */
  slackPace?: PacerOptions;
}

export interface RunningProcess {
  port: number;
  metrics: Metrics;
  /** Starts, signals and reads runs (the bot's slash commands use it; so do tests). */
  runs: Runs;
  executor: ExecutorKind;
  /** Runs one cluster's drift check now, as its scheduled job does. */
  driftCheck(cluster: string): Promise<DriftCheckResult>;
  /** Graceful stop: readiness off, no new work, active jobs finish (or are handed back), close. */
  stop(): Promise<void>;
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

/** What bot and worker share: Slack auth, the executor with its job handlers, health, metrics. */
async function start(
  role: 'bot' | 'worker',
  config: AppConfig,
  logger: Logger,
  overrides: RuntimeOverrides,
): Promise<RunningProcess> {
  const slack = requireSlack(config);
  const metrics = createMetrics();
  const client = createWebClient(slack, logger, overrides.webClientOptions);
  const identity = await verifySlackAuth(client);
  logger.info(
    { team: identity.team, teamId: identity.teamId, botUserId: identity.botUserId },
    'slack auth ok',
  );
  const slackState = { ok: true, detail: 'ok' };
  const recheck = setInterval(() => {
    verifySlackAuth(client).then(
      () => Object.assign(slackState, { ok: true, detail: 'ok' }),
      (error: unknown) =>
        Object.assign(slackState, { ok: false, detail: (error as Error).message }),
    );
  }, SLACK_AUTH_RECHECK_MS);
  recheck.unref();

  // Signed Slack requests until answered. Whatever can wait (a run's start after its ack, the
  // worker's next job, every Kubernetes and Slack call of the work in flight) waits for a burst
  // of them to have its acks: one event loop serves both.
  const activity = new RequestActivity();
  const slackChat = new SlackChat(createChatClient(slack, logger, overrides.webClientOptions), {
    logger,
    metrics,
    ...(overrides.slackPace === undefined ? {} : { pace: overrides.slackPace }),
  });
  const chat = foregroundFirstChat(slackChat, activity);
  const clusters = foregroundFirstDirectory(
    overrides.clusters ??
      new KubeClusterDirectory(config, logger, {
        ...overrides.kube,
        onResponse: (verb, status) =>
          metrics.kubernetesRequests.inc({ verb, code: statusClass(status) }),
      }),
    activity,
  );
  const clock = overrides.clock ?? systemClock;
  // The Slack observer keeps message ts on runs through the engine it observes.
  const late: { runs?: Runs } = {};
  const slackObserver = new SlackRunObserver(chat, logger, {
    clusters: config.clusters,
    record: (runId, facts) => late.runs?.record(runId, facts) ?? Promise.resolve(),
  });
  const execution = startExecution({
    kind: overrides.executor ?? 'bullmq',
    config,
    metrics,
    clock,
    logger,
    environment: new DefaultRunEnvironment(config.clusters, clusters, chat, clock, logger),
    observers: [slackObserver, new LogRunObserver(logger)],
    drift: { clusters: config.clusters, directory: clusters, chat },
    audit: { retentionMs: config.auditRetentionMs },
    foreground: activity,
  });
  late.runs = execution.runs;

  const bolt =
    role === 'bot' ? createBoltApp(slack, identity, logger, overrides.webClientOptions) : undefined;
  if (bolt !== undefined) {
    const teamUrl = identity.url;
    bolt.app.error((error) => {
      logger.error({ err: error }, 'unhandled error in a Slack listener');
      return Promise.resolve();
    });
    const groups = new SlackGroupMembers(client, logger);
    const isApprover = async (
      cluster: ClusterConfig,
      userId: string,
      teamId: string,
    ): Promise<boolean> =>
      teamId === identity.teamId &&
      (cluster.approvers.users.includes(userId) ||
        (await groups.members(cluster.approvers.groups)).has(userId));
    registerCommands(bolt.app, {
      verbs,
      services: {
        config,
        runs: execution.runs,
        isApprover,
        directory: clusters,
        chat,
        responseUrls: slackChat,
        runStore: execution.runs.store,
        clock,
        ...(execution.audit === undefined ? {} : { audit: execution.audit }),
        ...(teamUrl === undefined
          ? {}
          : { messageLink: (channel: string, ts: string) => messageLink(teamUrl, channel, ts) }),
      },
      logger,
      metrics,
      foreground: activity,
    });
    registerUnhandledInteractions(bolt.app, logger);
    registerInteractions(bolt.app, {
      config,
      runs: execution.runs,
      homeTeamId: identity.teamId,
      groups,
      planHashNow: (state) => planHashNow(state, config.clusters, clusters),
      ...(execution.drift === undefined ? {} : { drifts: execution.drift.store }),
      clock,
      logger,
      metrics,
      foreground: activity,
    });
  }

  // Requests already served, shared by every replica through Redis (in this process otherwise).
  const seenRedis =
    bolt?.listener !== undefined && execution.kind === 'bullmq'
      ? createRedis(config.redisUrl, 'producer', logger, { autoPipelining: true })
      : undefined;
  const seen: SeenRequests =
    seenRedis === undefined
      ? new MemorySeenRequests()
      : new SharedSeenRequests(
          new RedisSeenRequests(seenRedis, config.queuePrefix),
          new MemorySeenRequests(),
          logger,
        );
  const slackListener =
    bolt?.listener === undefined
      ? undefined
      : guardSlackListener(bolt.listener, {
          signingSecret: slack.signingSecret ?? '',
          installation: {
            teamId: identity.teamId,
            ...(identity.enterpriseId === undefined ? {} : { enterpriseId: identity.enterpriseId }),
            ...(slack.appId === undefined ? {} : { appId: slack.appId }),
          },
          seen,
          logger,
          activity,
        });

  const server = createHttpServer({
    ...(slackListener === undefined ? {} : { slackListener }),
    readiness: async () => {
      const checks = {
        ...(await execution.checks()),
        slack: slackState.ok ? 'ok' : `auth failed: ${slackState.detail}`,
      };
      return { ready: Object.values(checks).every((v) => v === 'ok'), checks };
    },
    metrics: async () => ({
      contentType: metrics.registry.contentType,
      body: `${await metrics.registry.metrics()}\n${await execution.metricsText()}`,
    }),
    logger,
  });
  let port: number;
  try {
    port = await listen(server, config.port, overrides.host);
    if (bolt?.socketMode === true) await bolt.app.start();
    // Runs a crashed or stopped process left unfinished carry on here (or roll back).
    await execution
      .resume(`${role} started`)
      .catch((error: unknown) => logger.warn({ err: error }, 'could not look for unfinished runs'));
    // In the background: without Redis the queue waits for it (readiness says so meanwhile).
    execution.drift
      ?.start()
      .catch((error: unknown) => logger.warn({ err: error }, 'could not schedule the drift guard'));
  } catch (error) {
    // The worker is already taking jobs: hand them back rather than let exit cut them off.
    clearInterval(recheck);
    server.close();
    await execution.stop(0);
    if (seenRedis !== undefined) await closeRedis(seenRedis);
    throw error;
  }
  logger.info(
    {
      port,
      executor: execution.kind,
      ...(bolt === undefined ? {} : { mode: bolt.socketMode ? 'socket' : 'http' }),
    },
    `${role} started`,
  );

  return {
    port,
    metrics,
    executor: execution.kind,
    runs: execution.runs,
    driftCheck: (cluster) =>
      execution.drift?.check(cluster) ??
      Promise.resolve({ outcome: 'off', reason: 'no drift guard in this process' }),
    stop: async () => {
      clearInterval(recheck);
      logger.info('stopping: no new Slack requests or jobs');
      if (bolt?.socketMode === true) await bolt.app.stop();
      await stopServer(server, logger);
      if (seenRedis !== undefined) await closeRedis(seenRedis);
      await execution.stop(config.shutdownGraceMs);
      logger.info('stopped');
    },
  };
}

/** `proxy-migrate bot`: the Bolt app and a worker in one process, on one HTTP port. */
export async function startBot(
  config: AppConfig,
  logger: Logger,
  overrides: RuntimeOverrides = {},
): Promise<RunningProcess> {
  return start('bot', config, logger, overrides);
}

/** `proxy-migrate worker`: workers only, with health and metrics on PORT. */
export async function startWorker(
  config: AppConfig,
  logger: Logger,
  overrides: RuntimeOverrides = {},
): Promise<RunningProcess> {
  return start('worker', config, logger, overrides);
}
