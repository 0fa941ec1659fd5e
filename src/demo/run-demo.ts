/**
 * The demo: the twin serves a scenario, the real bot stack (Bolt over HTTP, the queue, the worker,
 * client-node, probe pods) runs a pre-flight on it, and a local Slack stand-in prints every
 * message in the terminal. Uses BullMQ when Redis answers, runs in-process otherwise.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deletePrefix, redisAnswers } from '../adapters/redis.js';
import { startBot, type RunningProcess } from '../cli/runtime.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { blocksToText } from '../views/block-text.js';
import { startLocalSlack, type LocalMessage, type LocalSlack } from './local-slack.js';
import { sendSlashCommand } from './slash-command.js';

export interface DemoOptions {
  scenario: string;
  redisUrl: string;
  /** Skip Redis even when it answers. */
  inProcess: boolean;
  speed: number;
  out: NodeJS.WritableStream;
  colour: boolean;
  timeoutMs: number;
}

const CHANNEL = 'C0DEMOOPS';
const USER = 'U0ALICE';

function banner(options: DemoOptions, text: string): string {
  const rule = '─'.repeat(Math.max(4, 60 - text.length));
  return options.colour ? `\u001b[36m── ${text} ${rule}\u001b[0m` : `── ${text} ${rule}`;
}

function describe(message: LocalMessage, cardTs: Set<string>): string {
  switch (message.kind) {
    case 'response':
      return 'only @alice sees this';
    case 'ephemeral':
      return `#ops · only @alice sees this`;
    case 'post':
      if (message.threadTs !== undefined) return '#ops · reply in the thread';
      cardTs.add(message.ts);
      return '#ops · new message';
    case 'update':
      return '#ops · message edited in place';
    case 'file':
      return '#ops · file uploaded in the thread';
  }
}

export async function runDemo(options: DemoOptions): Promise<number> {
  const write = (line = ''): void => void options.out.write(`${line}\n`);
  const useRedis = !options.inProcess && (await redisAnswers(options.redisUrl));
  const prefix = `proxy-migrate-demo-${randomBytes(3).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'proxy-migrate-demo-'));
  const cards = new Set<string>();
  let twin: Twin | undefined;
  let slack: LocalSlack | undefined;
  let bot: RunningProcess | undefined;
  try {
    twin = await startTwin({ scenario: options.scenario, speed: options.speed });
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    await twin.writeKubeconfig(kubeconfig);
    await writeFile(
      join(dir, 'clusters.yaml'),
      // The shipped scenarios name their pools with a node-pool label.
      `clusters:\n  - name: ${twin.name}\n    kubeconfig: ${kubeconfig}\n    context: ${twin.name}\n    channels: [${CHANNEL}]\n    poolLabel: node-pool\n`,
    );
    slack = await startLocalSlack((message) => {
      write(banner(options, describe(message, cards)));
      write(blocksToText(message.blocks, message.text, { colour: options.colour }));
      write();
    });
    const signingSecret = randomBytes(16).toString('hex');
    const config = loadConfig(
      {
        SLACK_BOT_TOKEN: 'xoxb-demo-local',
        SLACK_SIGNING_SECRET: signingSecret,
        SLACK_API_URL: slack.apiUrl,
        REDIS_URL: options.redisUrl,
        PORT: '0',
        CLUSTERS_FILE: join(dir, 'clusters.yaml'),
        QUEUE_PREFIX: prefix,
        LOG_LEVEL: 'error',
      },
      'bot',
    );
    bot = await startBot(config, createLogger({ level: 'error', destination: process.stderr }), {
      host: '127.0.0.1',
      executor: useRedis ? 'bullmq' : 'in-process',
      webClientOptions: { retryConfig: { retries: 0 } },
    });
    write(
      `proxy-migrate demo · scenario ${options.scenario} (${twin.scenario.header.metadata.description ?? twin.name})`,
    );
    write(`twin      ${twin.url}  (kubectl: KUBECONFIG=${kubeconfig})`);
    write(`bot       http://127.0.0.1:${bot.port}/slack/events  (Bolt, signed requests)`);
    write(
      useRedis
        ? `queue     BullMQ on ${options.redisUrl} (prefix ${prefix})`
        : `queue     in-process (no Redis answered at ${options.redisUrl}; nothing is kept across restarts)`,
    );
    write();
    write(`@alice in #ops:  /proxy-migrate preflight ${twin.name}`);
    write();

    const ack = await sendSlashCommand(`http://127.0.0.1:${bot.port}/slack/events`, signingSecret, {
      text: `preflight ${twin.name}`,
      userId: USER,
      userName: 'alice',
      channelId: CHANNEL,
      channelName: 'ops',
      teamId: 'T0DEMO',
      responseUrl: slack.responseUrl(),
    });
    if (ack.status !== 200)
      throw new Error(`the bot answered the slash command with HTTP ${ack.status}`);
    const runId = await waitForRunId(slack, options.timeoutMs);
    const end = await bot.runs.waitFor(runId, options.timeoutMs);
    const delivered =
      end.outcome === 'verified' &&
      slack.messages.some(
        (m) => m.kind === 'update' && cards.has(m.ts) && m.text.includes('blockers'),
      ) &&
      slack.messages.some((m) => m.threadTs !== undefined && cards.has(m.threadTs));
    write(
      delivered
        ? `✔ report delivered (run ${runId})`
        : `✘ the report was not delivered (run ${runId}: ${end.outcome ?? 'unknown'}${end.reason === undefined ? '' : `, ${end.reason}`})`,
    );
    return delivered ? 0 : 1;
  } finally {
    await bot?.stop();
    await twin?.close();
    await slack?.close();
    if (useRedis) await deletePrefix(options.redisUrl, prefix).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** The run id is in the "queued" note the bot sends back through the response_url. */
async function waitForRunId(slack: LocalSlack, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const m of slack.messages) {
      const id = /run `?(pf-[a-z0-9-]+)`?/.exec(JSON.stringify(m.blocks ?? m.text))?.[1];
      if (m.kind === 'response' && id !== undefined) return id;
      if (m.kind === 'response' && /error code/.test(JSON.stringify(m.blocks))) {
        throw new Error(`the bot refused the command: ${m.text}`);
      }
    }
    if (Date.now() > deadline) throw new Error('the bot did not confirm the pre-flight in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
