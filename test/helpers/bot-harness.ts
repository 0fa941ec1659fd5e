/**
 * The whole bot stack as a test drives it: the real Bolt HTTP receiver and BullMQ on the real
 * Redis, Slack replaced by the fake Web API, clusters served by the twin through a kubeconfig
 * and clusters file on disk, exactly as an operator would configure them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startBot, type RunningProcess, type RuntimeOverrides } from '../../src/cli/runtime.js';
import { loadConfig, type AppConfig } from '../../src/config.js';
import { DRIFT_CHECK_JOB, RUNS_QUEUE } from '../../src/engine/jobs.js';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import {
  startFakeSlack,
  type FakeMessage,
  type FakeSlack,
  type FakeSlackOptions,
  type FakeView,
} from '../fakes/fake-slack.js';
import {
  blockActionsBody,
  buttonClickPayload,
  postSigned,
  slashCommandBody,
  viewSubmissionPayload,
} from '../fakes/slack-signing.js';
import { captureLog, type CapturedLog } from './log-capture.js';
import { deletePrefix } from '../../src/adapters/redis.js';
import { REDIS_URL, uniquePrefix } from './redis.js';

export const SIGNING_SECRET = '8f742231b10e8888abcd99aaaabbbb85';

/** The environment an operator would give the bot, pointed at the fake Slack and a test prefix. */
export function botEnv(
  fake: FakeSlack,
  clustersFile: string,
  queuePrefix: string,
): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    REDIS_URL,
    PORT: '0',
    CLUSTERS_FILE: clustersFile,
    QUEUE_PREFIX: queuePrefix,
  };
}

export interface HarnessOptions {
  /** Shipped twin scenario to serve as cluster-a. */
  scenario?: string;
  /** The twin's simulated clock speed (default 1). */
  twinSpeed?: number;
  /** cluster-a's approvers as flow YAML; default `{ users: [U0BOB] }`. */
  clusterAApprovers?: string;
  /** YAML lines added to cluster-a's entry (each starting with four spaces). */
  clusterAExtra?: string;
  /** Extra clusters-file YAML appended under `clusters:` (each starting with "  - name: …"). */
  extraClusters?: string;
  clusterAChannels?: string[];
  env?: Record<string, string>;
  overrides?: RuntimeOverrides;
  /** The fake workspace's identity (team, Enterprise org) as auth.test reports it. */
  slack?: FakeSlackOptions;
  /** Another Redis than the shared one (a private redis-server the test restarts). */
  redisUrl?: string;
}

export interface BotHarness {
  fake: FakeSlack;
  twin: Twin;
  bot: RunningProcess;
  config: AppConfig;
  log: CapturedLog;
  baseUrl: string;
  dir: string;
  queue: Queue;
  /** Sends a signed slash command; resolves to the HTTP response of Bolt's ack. */
  command(
    text: string,
    options?: { userId?: string; channelId?: string; responseId?: string },
  ): Promise<Response>;
  /** Presses `actionId` on `message` (an entry of `fake.messages`) as `userId` of `teamId`. */
  click(
    actionId: string,
    message: FakeMessage,
    options?: { userId?: string; teamId?: string; value?: string; responseId?: string },
  ): Promise<Response>;
  /** Submits a modal the bot opened (an entry of `fake.views`). */
  submitView(
    view: FakeView,
    values: Record<string, Record<string, string>>,
    options?: { userId?: string; teamId?: string },
  ): Promise<Response>;
  /** Run jobs (not drift checks) of every state in this harness's queue. */
  jobCount(): Promise<number>;
  stop(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<BotHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'pm-bot-'));
  const fake = await startFakeSlack(options.slack);
  const twin = await startTwin({
    scenario: options.scenario ?? 'kubeadm-ipvs',
    speed: options.twinSpeed ?? 1,
  });
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  await twin.writeKubeconfig(kubeconfig);
  const channels = options.clusterAChannels ?? ['C0OPS'];
  await writeFile(
    join(dir, 'clusters.yaml'),
    `clusters:
  - name: cluster-a
    kubeconfig: ./kubeconfig.yaml
    context: ${twin.name}
    channels: [${channels.join(', ')}]
    approvers: ${options.clusterAApprovers ?? '{ users: [U0BOB] }'}
    poolLabel: node-pool
${options.clusterAExtra ?? ''}${options.extraClusters ?? ''}`,
  );
  const prefix = uniquePrefix('bot');
  const log = captureLog();
  const redisUrl = options.redisUrl ?? REDIS_URL;
  const config = loadConfig(
    {
      ...botEnv(fake, join(dir, 'clusters.yaml'), prefix),
      REDIS_URL: redisUrl,
      SHUTDOWN_GRACE_SECONDS: '5',
      ...options.env,
    },
    'bot',
  );
  const bot = await startBot(config, log.logger, {
    host: '127.0.0.1',
    webClientOptions: { retryConfig: { retries: 0 } },
    ...options.overrides,
  });
  const baseUrl = `http://127.0.0.1:${bot.port}`;
  const queueConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  // Tests that stop Redis see this connection retry; the bot's own logs say what matters.
  queueConnection.on('error', () => undefined);
  const queue = new Queue(RUNS_QUEUE, { connection: queueConnection, prefix });
  queue.on('error', () => undefined);
  let responses = 0;
  return {
    fake,
    twin,
    bot,
    config,
    log,
    baseUrl,
    dir,
    queue,
    command: (text, opts = {}) => {
      responses += 1;
      const body = slashCommandBody({
        text,
        response_url: fake.responseUrl(opts.responseId ?? `r${responses}`),
        user_id: opts.userId ?? 'U0ALICE',
        channel_id: opts.channelId ?? 'C0OPS',
      });
      return postSigned(`${baseUrl}/slack/events`, body, { secret: SIGNING_SECRET });
    },
    click: (actionId, message, opts = {}) => {
      responses += 1;
      const payload = buttonClickPayload({
        actionId,
        messageTs: message.ts,
        responseUrl: fake.responseUrl(opts.responseId ?? `r${responses}`),
        channelId: message.channel,
        ...(message.thread_ts === undefined ? {} : { threadTs: message.thread_ts }),
        message,
        ...(opts.userId === undefined ? {} : { userId: opts.userId }),
        ...(opts.teamId === undefined ? {} : { teamId: opts.teamId }),
        value: opts.value ?? buttonValue(message.blocks, actionId) ?? '',
      });
      return postSigned(`${baseUrl}/slack/events`, blockActionsBody(payload), {
        secret: SIGNING_SECRET,
      });
    },
    submitView: (view, values, opts = {}) => {
      const payload = viewSubmissionPayload({
        view: view.view,
        viewId: view.id,
        values,
        ...(opts.userId === undefined ? {} : { userId: opts.userId }),
        ...(opts.teamId === undefined ? {} : { teamId: opts.teamId }),
      });
      return postSigned(`${baseUrl}/slack/events`, blockActionsBody(payload), {
        secret: SIGNING_SECRET,
      });
    },
    jobCount: async () => {
      // Run jobs only: the drift guard's scheduler adds its checks on its own timetable.
      const jobs = await queue.getJobs();
      return jobs.filter((job) => job.name !== DRIFT_CHECK_JOB).length;
    },
    stop: async () => {
      await bot.stop();
      await queue.close();
      queueConnection.disconnect();
      await deletePrefix(redisUrl, prefix);
      await twin.close();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The value of the button `actionId` in `blocks`, as Slack echoes it on a click. */
export function buttonValue(blocks: readonly unknown[], actionId: string): string | undefined {
  for (const block of blocks) {
    const elements = (block as { elements?: unknown[]; accessory?: unknown }).elements ?? [];
    for (const element of [...elements, (block as { accessory?: unknown }).accessory]) {
      const e = element as { action_id?: unknown; value?: unknown } | undefined;
      if (e?.action_id === actionId && typeof e.value === 'string') return e.value;
    }
  }
  return undefined;
}
