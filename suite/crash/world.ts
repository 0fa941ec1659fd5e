/**
 * What the crash suite runs against: the twin (served over its HTTP API through a kubeconfig),
 * the fake Slack, a Redis key prefix of its own, and the bot in a child process configured as an
 * operator would (clusters file, env), plus the suite's own read-only view of the run store.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { RedisRunStore } from '../../src/adapters/run-store/redis.js';
import type { RunState } from '../../src/core/run-state.js';
import { startFakeSlack, type FakeMessage, type FakeSlack } from '../../test/fakes/fake-slack.js';
import {
  blockActionsBody,
  buttonClickPayload,
  postSigned,
  slashCommandBody,
} from '../../test/fakes/slack-signing.js';
import { SIGNING_SECRET, botEnv, buttonValue } from '../../test/helpers/bot-harness.js';
import { REDIS_URL, dropPrefix, uniquePrefix } from '../../test/helpers/redis.js';
import { BotProcess } from './bot-process.js';
import { freePort } from '../../test/helpers/free-port.js';

export const CLUSTER = 'cluster-a';
export const CHANNEL = 'C0OPS';
export const REQUESTER = 'U0ALICE';
export const APPROVER = 'U0BOB';

export interface World {
  twin: Twin;
  fake: FakeSlack;
  bot: BotProcess;
  store: RedisRunStore;
  /** The cluster's swap deadline (clusters file), the bound on a node without kube-proxy. */
  swapDeadlineMs: number;
  command(text: string): Promise<void>;
  click(actionId: string, message: FakeMessage, userId: string): Promise<void>;
  run(id: string): Promise<RunState | undefined>;
  close(): Promise<void>;
}

export interface WorldOptions {
  twinSpeed: number;
}

export async function startWorld(options: WorldOptions): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), 'pm-suite-crash-'));
  const twin = await startTwin({ scenario: 'kubeadm-ipvs', speed: options.twinSpeed });
  const fake = await startFakeSlack();
  await twin.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  const swapDeadlineSeconds = 120;
  await writeFile(
    join(dir, 'clusters.yaml'),
    `clusters:
  - name: ${CLUSTER}
    kubeconfig: ./kubeconfig.yaml
    context: ${twin.name}
    channels: [${CHANNEL}]
    approvers: { users: [${APPROVER}] }
    poolLabel: node-pool
    swapDeadlineSeconds: ${swapDeadlineSeconds}
`,
  );
  const prefix = uniquePrefix('crash');
  const env = {
    ...botEnv(fake, join(dir, 'clusters.yaml'), prefix),
    HOME: dir,
    LOG_LEVEL: process.env['CRASH_SUITE_LOG_LEVEL'] ?? 'warn',
    SHUTDOWN_GRACE_SECONDS: '5',
  };
  const bot = new BotProcess(env, await freePort());
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
  const store = new RedisRunStore(redis, prefix);
  let requests = 0;
  const send = async (body: string): Promise<void> => {
    const response = await postSigned(`${bot.url}/slack/events`, body, {
      secret: SIGNING_SECRET,
    });
    if (response.status !== 200) throw new Error(`the bot answered ${response.status}`);
  };
  return {
    twin,
    fake,
    bot,
    store,
    swapDeadlineMs: swapDeadlineSeconds * 1000,
    command: (text) => {
      requests += 1;
      return send(
        slashCommandBody({
          text,
          response_url: fake.responseUrl(`cmd${requests}`),
          user_id: REQUESTER,
          channel_id: CHANNEL,
        }),
      );
    },
    click: (actionId, message, userId) => {
      requests += 1;
      const payload = buttonClickPayload({
        actionId,
        messageTs: message.ts,
        responseUrl: fake.responseUrl(`click${requests}`),
        channelId: message.channel,
        ...(message.thread_ts === undefined ? {} : { threadTs: message.thread_ts }),
        message,
        userId,
        value: buttonValue(message.blocks, actionId) ?? '',
      });
      return send(blockActionsBody(payload));
    },
    run: (id) => store.get(id),
    close: async () => {
      await bot.stop();
      redis.disconnect();
      await dropPrefix(prefix);
      await fake.close();
      await twin.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
