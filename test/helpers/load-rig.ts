/**
 * The bot under load as an operator runs it: `proxy-migrate bot` in its own process (Bolt's HTTP
 * receiver, BullMQ and its in-process worker on the real Redis, logs to a file as a container's
 * stdout would go), the twin in another, the fake Slack in this one, and optionally a bare Bolt
 * listener (bare-bolt.ts) as a fourth process to measure the floor beside it. Requests are
 * signed here; every one carries its own response_url, so the fake Slack can count answers per
 * request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisRunStore } from '../../src/adapters/run-store/redis.js';
import { startFakeSlack, type FakeMessage, type FakeSlack } from '../fakes/fake-slack.js';
import { blockActionsBody, buttonClickPayload, slashCommandBody } from '../fakes/slack-signing.js';
import { SIGNING_SECRET, botEnv, buttonValue } from './bot-harness.js';
import { signed, type SignedRequest } from './burst.js';
import { REDIS_URL, dropPrefix, uniquePrefix } from './redis.js';
import { freePort } from './free-port.js';

const ROOT = join(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'src/main.ts');
const BARE = join(ROOT, 'test/helpers/bare-bolt.ts');
const NODE_ARGS = ['--import', 'tsx', '--conditions=source'];

export interface LoadRigOptions {
  /** Cluster names in the clusters file, each the twin (default just cluster-a). */
  clusters?: readonly string[];
  /** Start the bare Bolt listener too. */
  bare?: boolean;
  /** More environment for the bot (WORKER_CONCURRENCY, LOG_LEVEL, …). */
  env?: Record<string, string>;
  scenario?: string;
  /**
   * Jobs in a `proxy-migrate worker` process of their own, the bot with WORKER_CONCURRENCY=0
   * (default: the bot's in-process worker).
   */
  separateWorker?: boolean;
  /** Node flags for the bot's process (`--cpu-prof` to see where its time goes). */
  botNodeArgs?: string[];
  /** Node flags for the bare listener's process, to compare its profile with the bot's. */
  bareNodeArgs?: string[];
}

export interface LoadRig {
  fake: FakeSlack;
  /** The bot's /slack/events. */
  botUrl: string;
  /** The bare listener's /slack/events, when started. */
  bareUrl?: string;
  prefix: string;
  /** The bot's run store, read from here. */
  store: RedisRunStore;
  /** The bot's log (JSON lines). */
  logFile: string;
  /** CPU time the bot's and the bare listener's processes have used so far, in ms (Linux). */
  cpuMs(): { bot: number; bare?: number };
  /** A signed slash command to `url`, answered at response_url `responseId`. */
  command(
    url: string,
    text: string,
    responseId: string,
    options?: { userId?: string; channelId?: string },
  ): SignedRequest;
  /** A signed click of `actionId` on `message`, answered at response_url `responseId`. */
  click(
    url: string,
    actionId: string,
    message: FakeMessage,
    responseId: string,
    options?: { userId?: string },
  ): SignedRequest;
  /** The bot's log lines. */
  logLines(): Record<string, unknown>[];
  stop(): Promise<void>;
}

/** utime + stime of a process from /proc, in ms; NaN where /proc is not there. */
function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    // USER_HZ is 100 on every Linux this runs on.
    return ticks * 10;
  } catch {
    return Number.NaN;
  }
}

interface Child {
  child: ChildProcess;
  output: () => string;
}

function start(
  args: string[],
  env: Record<string, string>,
  logFile?: string,
  nodeArgs: string[] = [],
): Child {
  const fd = logFile === undefined ? undefined : openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, ...NODE_ARGS, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'],
  });
  if (fd !== undefined) closeSync(fd);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { child, output: () => (logFile === undefined ? out : readFileSync(logFile, 'utf8')) };
}

async function until<T>(what: string, child: Child, probe: () => Promise<T | undefined>) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (child.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not start:\n${child.output().slice(-4000)}`);
}

async function stopChild(child: Child, graceMs = 15_000): Promise<void> {
  if (child.child.exitCode !== null || child.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.child.once('exit', () => resolve()));
  child.child.kill('SIGTERM');
  const timer = setTimeout(() => child.child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Every cluster is the one twin. Only the first keeps its drift guard: hundreds of names for one
 * twin would otherwise start hundreds of drift checks at boot, which no real fleet does at once.
 */
function clustersYaml(names: readonly string[], context: string): string {
  const entries = names.map(
    (name, i) => `  - name: ${name}
    kubeconfig: ./kubeconfig.yaml
    context: ${context}
    channels: [C0OPS]
    approvers: { users: [U0BOB] }
    poolLabel: node-pool
${i === 0 ? '' : '    driftCheckMinutes: 0\n'}`,
  );
  return `clusters:\n${entries.join('')}`;
}

export async function startLoadRig(options: LoadRigOptions = {}): Promise<LoadRig> {
  const dir = await mkdtemp(join(tmpdir(), 'pm-load-'));
  const children: Child[] = [];
  const fake = await startFakeSlack();
  const prefix = uniquePrefix('load');
  const storeRedis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const stop = async (): Promise<void> => {
    // Newest first: the bare listener, the bot (it drains its worker), then the twin it reads.
    for (const child of [...children].reverse()) await stopChild(child);
    storeRedis.disconnect();
    await dropPrefix(prefix);
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    const twin = start(
      [ENTRY, 'twin', '--scenario', options.scenario ?? 'kubeadm-ipvs', '--kubeconfig', kubeconfig],
      {},
    );
    children.push(twin);
    const context = await until('the twin', twin, () =>
      Promise.resolve(/twin "([^"]+)" serving/.exec(twin.output())?.[1]),
    );
    await writeFile(
      join(dir, 'clusters.yaml'),
      clustersYaml(options.clusters ?? ['cluster-a'], context),
    );
    const env = {
      ...botEnv(fake, join(dir, 'clusters.yaml'), prefix),
      SHUTDOWN_GRACE_SECONDS: '2',
      ...options.env,
    };
    if (options.separateWorker === true) {
      const workerPort = await freePort();
      const worker = start(
        [ENTRY, 'worker'],
        { ...env, PORT: String(workerPort) },
        join(dir, 'worker.log'),
      );
      children.push(worker);
      await until('the worker', worker, async () =>
        (await fetch(`http://127.0.0.1:${workerPort}/readyz`)).ok ? true : undefined,
      );
    }
    const port = await freePort();
    const logFile = join(dir, 'bot.log');
    const bot = start(
      [ENTRY, 'bot'],
      {
        ...env,
        PORT: String(port),
        ...(options.separateWorker === true ? { WORKER_CONCURRENCY: '0' } : {}),
      },
      logFile,
      options.botNodeArgs,
    );
    children.push(bot);
    await until('the bot', bot, async () =>
      (await fetch(`http://127.0.0.1:${port}/readyz`)).ok ? true : undefined,
    );
    let bareUrl: string | undefined;
    let barePid: number | undefined;
    if (options.bare === true) {
      const barePort = await freePort();
      const bare = start(
        [BARE],
        { SLACK_SIGNING_SECRET: SIGNING_SECRET, PORT: String(barePort) },
        undefined,
        options.bareNodeArgs,
      );
      children.push(bare);
      await until('the bare Bolt listener', bare, () =>
        Promise.resolve(bare.output().includes('listening') ? true : undefined),
      );
      bareUrl = `http://127.0.0.1:${barePort}/slack/events`;
      barePid = bare.child.pid;
    }
    return {
      fake,
      botUrl: `http://127.0.0.1:${port}/slack/events`,
      ...(bareUrl === undefined ? {} : { bareUrl }),
      prefix,
      store: new RedisRunStore(storeRedis, prefix),
      logFile,
      cpuMs: () => ({
        bot: processCpuMs(bot.child.pid),
        ...(barePid === undefined ? {} : { bare: processCpuMs(barePid) }),
      }),
      command: (url, text, responseId, opts = {}) =>
        signed(
          url,
          slashCommandBody({
            text,
            response_url: fake.responseUrl(responseId),
            user_id: opts.userId ?? 'U0ALICE',
            channel_id: opts.channelId ?? 'C0OPS',
          }),
          SIGNING_SECRET,
        ),
      click: (url, actionId, message, responseId, opts = {}) =>
        signed(
          url,
          blockActionsBody(
            buttonClickPayload({
              actionId,
              messageTs: message.ts,
              responseUrl: fake.responseUrl(responseId),
              channelId: message.channel,
              ...(message.thread_ts === undefined ? {} : { threadTs: message.thread_ts }),
              message,
              ...(opts.userId === undefined ? {} : { userId: opts.userId }),
              value: buttonValue(message.blocks, actionId) ?? '',
            }),
          ),
          SIGNING_SECRET,
        ),
      logLines: () =>
        readFileSync(logFile, 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
