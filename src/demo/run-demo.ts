/**
 * The demo: the twin serves a scenario, the real bot stack (Bolt over HTTP, the queue, the worker,
 * client-node, probe pods) runs a pre-flight on it, and a local Slack stand-in prints every
 * message in the terminal. Uses BullMQ when Redis answers, runs in-process otherwise.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { deletePrefix, redisAnswers } from '../adapters/redis.js';
import { startBot, type RunningProcess } from '../cli/runtime.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { blocksToText } from '../views/block-text.js';
import { paint } from '../views/paint.js';
import { startLocalSlack, type LocalMessage, type LocalSlack } from './local-slack.js';
import { ACTION } from '../interactions/ids.js';
import { sendButtonClick, sendViewSubmission } from './button-click.js';
import { interactive, PEOPLE, type Person } from './interactive.js';
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
  /** Interactive: the person types commands and presses buttons on this input. */
  input?: NodeJS.ReadableStream;
}

const CHANNEL = 'C0DEMOOPS';
/** The node the story moves, and one its pre-flight blocks (kubeadm-ipvs: kernel 5.4). */
const NODE = 'blue-1';
const BLOCKED = 'legacy-1';

function banner(options: DemoOptions, text: string): string {
  const rule = '─'.repeat(Math.max(4, 60 - text.length));
  return paint(options.colour, 'cyan', `── ${text} ${rule}`);
}

function describe(message: LocalMessage, cardTs: Set<string>, who: string): string {
  switch (message.kind) {
    case 'response':
      return `only @${who} sees this`;
    case 'ephemeral':
      return `#ops · only @${who} sees this`;
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
  /** Who acted last: ephemeral answers are theirs. */
  const actor = { name: 'alice' };
  let bot: RunningProcess | undefined;
  try {
    twin = await startTwin({ scenario: options.scenario, speed: options.speed });
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    await twin.writeKubeconfig(kubeconfig);
    const clustersFile = join(dir, 'clusters.yaml');
    const clusters = stringify({
      clusters: [
        {
          name: twin.name,
          kubeconfig,
          context: twin.name,
          channels: [CHANNEL],
          // The shipped scenarios name their pools with a node-pool label.
          poolLabel: 'node-pool',
          approvers: { users: [PEOPLE.alice, PEOPLE.bob] },
        },
      ],
    });
    await writeFile(clustersFile, clusters);
    slack = await startLocalSlack((message) => {
      write(banner(options, describe(message, cards, actor.name)));
      write(
        shorten(blocksToText(message.blocks, message.text, { colour: options.colour }), message),
      );
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
      // The local stand-in has no per-channel limit: the story plays at its own speed.
      slackPace: { perSecond: 50, burst: 20 },
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
    // The clusters file decides the pools (poolLabel) and so the counts: shown, so a reader can
    // see why pools differ from another tool's, and repeat the pre-flight in a terminal.
    write(`clusters  ${clustersFile}`);
    write(clusters.trimEnd().replace(/^/gm, '          '));
    write(
      `          (the terminal gives the same counts: CLUSTERS_FILE=${clustersFile} npx proxy-migrate preflight ${twin.name})`,
    );
    write();
    const local = slack;
    const events = `http://127.0.0.1:${bot.port}/slack/events`;
    const people = PEOPLE;
    const command = async (who: Person, text: string): Promise<void> => {
      actor.name = who;
      write(`@${who} in #ops:  /proxy-migrate ${text}`);
      write();
      const ack = await sendSlashCommand(events, signingSecret, {
        text,
        userId: people[who],
        userName: who,
        channelId: CHANNEL,
        channelName: 'ops',
        teamId: 'T0DEMO',
        responseUrl: local.responseUrl(),
      });
      if (ack.status !== 200)
        throw new Error(`the bot answered the slash command with HTTP ${ack.status}`);
    };
    const press = async (
      who: Person,
      label: string,
      actionId: string,
      message: LocalMessage,
    ): Promise<void> => {
      actor.name = who;
      write(`@${who} presses ${label}`);
      write();
      const value = buttonValue(message.blocks ?? [], actionId);
      if (value === undefined) throw new Error(`no ${label} button on that message`);
      const ack = await sendButtonClick(events, signingSecret, {
        actionId,
        value,
        userId: people[who],
        userName: who,
        teamId: 'T0DEMO',
        channelId: CHANNEL,
        messageTs: message.ts,
        ...(message.threadTs === undefined ? {} : { threadTs: message.threadTs }),
        responseUrl: local.responseUrl(),
      });
      if (ack.status !== 200) throw new Error(`the bot answered the click with HTTP ${ack.status}`);
    };
    const until = <T>(
      what: string,
      check: () => T | undefined | Promise<T | undefined>,
    ): Promise<T> => waitUntil(what, check, options.timeoutMs);
    const seen = (from: number) => local.messages.slice(from);
    const outcomes: string[] = [];

    if (options.input !== undefined) {
      const input = options.input;
      const submitReject = async (who: Person, reason: string, after: number): Promise<void> => {
        // A refused Reject opens no modal: the refusal was printed, and there is nothing to fill.
        const modal = await waitUntil('the reject modal', () => local.views[after], 5_000).catch(
          () => undefined,
        );
        if (modal === undefined) return;
        write(`@${who} gives the reason: ${reason}`);
        const sent = await sendViewSubmission(events, signingSecret, {
          viewId: modal.id,
          view: modal.view,
          values: { reason: { 'reason-text': reason } },
          userId: people[who],
          userName: who,
          teamId: 'T0DEMO',
        });
        if (sent.status !== 200)
          throw new Error(`the bot answered the form with HTTP ${sent.status}`);
      };
      return await interactive({
        input,
        write,
        cluster: twin.name,
        messages: local.messages,
        command,
        press,
        submitReject,
        viewsOpened: () => local.views.length,
        settle: async () => {
          const runs = bot?.runs;
          if (runs === undefined) return;
          // Give the command's run a moment to be created before looking.
          await new Promise((resolve) => setTimeout(resolve, 500));
          await waitUntil(
            'the runs to wait for someone or end',
            async () => {
              const all = await runs.store.list({ limit: 100 });
              return all.some((r) => r.phase === 'running' || r.phase === 'rolling-back')
                ? undefined
                : true;
            },
            options.timeoutMs,
          );
          await new Promise((resolve) => setTimeout(resolve, 300));
        },
        timeoutMs: options.timeoutMs,
      });
    }

    // 1. Pre-flight.
    await command('alice', `preflight ${twin.name}`);
    const preflightId = await waitForRunId(local, /pf-[a-z0-9-]+/, options.timeoutMs);
    const preflight = await bot.runs.waitFor(preflightId, options.timeoutMs);
    const delivered =
      preflight.outcome === 'verified' &&
      local.messages.some(
        (m) => m.kind === 'update' && cards.has(m.ts) && m.text.includes('blockers'),
      ) &&
      local.messages.some((m) => m.threadTs !== undefined && cards.has(m.threadTs));
    outcomes.push(
      delivered
        ? `✔ report delivered (run ${preflightId})`
        : `✘ the report was not delivered (run ${preflightId})`,
    );

    // 2. The plan, then the cutover request and its approval card.
    let mark = local.messages.length;
    await command('alice', `plan ${twin.name} ${NODE}`);
    await until('the plan card', () =>
      seen(mark).find(
        (m) => m.kind === 'post' && m.threadTs === undefined && /plan `?[0-9a-f]{7}/i.test(m.text),
      ),
    );
    write(
      `watch the nodes change:  KUBECONFIG=${kubeconfig} kubectl get nodes -L proxy-migrate.io/mode -w`,
    );
    write();
    mark = local.messages.length;
    await command('alice', `cutover ${twin.name} ${NODE}`);
    const cutoverId = await waitForRunId(local, /co-[a-z0-9-]+/, options.timeoutMs, mark);
    const approval = await until('the approval card', () =>
      seen(mark).find(
        (m) => m.kind === 'post' && JSON.stringify(m.blocks ?? []).includes(ACTION.approve),
      ),
    );

    // 3. The requester cannot approve their own run; a second approver can.
    mark = local.messages.length;
    await press('alice', 'Approve', ACTION.approve, approval);
    const own = await until('the refusal', () =>
      seen(mark).find((m) => m.kind === 'response' && m.text.startsWith('Not approved')),
    );
    outcomes.push(
      own.text.includes('four-eyes')
        ? '✔ self-approval refused (four-eyes)'
        : `✘ self-approval: ${own.text}`,
    );
    await press('bob', 'Approve', ACTION.approve, approval);
    const cutover = await bot.runs.waitFor(cutoverId, options.timeoutMs);
    outcomes.push(
      cutover.outcome === 'verified'
        ? `✔ ${NODE} cut over to nftables and verified (run ${cutoverId})`
        : `✘ cutover of ${NODE}: ${cutover.outcome ?? 'unknown'}, ${cutover.reason ?? ''}`,
    );

    // 4. One click rolls it back, verified the same way.
    const result = await until('the result with its Rollback button', () =>
      local.messages.find(
        (m) =>
          m.kind === 'post' &&
          m.threadTs !== undefined &&
          JSON.stringify(m.blocks ?? []).includes(ACTION.rollback),
      ),
    );
    // The card's edit to "verified" goes out behind the result reply (posts are paced per
    // channel): let it land first, so the story prints in the order it happened.
    await until('the run card showing the cutover verified', () =>
      local.messages.find(
        (m) =>
          m.kind === 'update' &&
          `${m.text}${JSON.stringify(m.blocks ?? [])}`.includes(
            `${NODE} now runs nftables, verified`,
          ),
      ),
    ).catch(() => undefined);
    await press('bob', `Roll back ${NODE} (and confirms)`, ACTION.rollback, result);
    const rollbackId = await until('the rollback run', async () => {
      const facts = (await bot?.runs.get(cutoverId))?.facts;
      return typeof facts?.['rollbackRun'] === 'string' ? facts['rollbackRun'] : undefined;
    });
    const rollback = await bot.runs.waitFor(rollbackId, options.timeoutMs);
    outcomes.push(
      rollback.outcome === 'verified'
        ? `✔ ${NODE} rolled back to IPVS and verified (run ${rollbackId})`
        : `✘ rollback of ${NODE}: ${rollback.outcome ?? 'unknown'}, ${rollback.reason ?? ''}`,
    );

    // The rollback's result is paced behind the card edit: let it land before the next
    // command, so the story prints in the order it happened.
    await until('the rollback result in the thread', () =>
      local.messages.find((m) =>
        `${m.text}${JSON.stringify(m.blocks ?? [])}`.includes(
          `${NODE} is back on the original kube-proxy (IPVS), verified`,
        ),
      ),
    ).catch(() => undefined);

    // 5. A node the pre-flight blocks is refused before anything is written.
    mark = local.messages.length;
    await command('alice', `cutover ${twin.name} ${BLOCKED}`);
    const blockedId = await waitForRunId(local, /co-[a-z0-9-]+/, options.timeoutMs, mark);
    const blocked = await bot.runs.waitFor(blockedId, options.timeoutMs);
    outcomes.push(
      blocked.outcome === 'refused' && blocked.journal.length === 0
        ? `✔ cutover of ${BLOCKED} refused before any write: ${blocked.reason ?? ''}`
        : `✘ cutover of ${BLOCKED}: ${blocked.outcome ?? 'unknown'}`,
    );
    // The last card edits land before the summary.
    await bot.runs.idle?.();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (const line of outcomes) write(line);
    return outcomes.every((line) => line.startsWith('✔')) ? 0 : 1;
  } finally {
    await bot?.stop();
    await twin?.close();
    await slack?.close();
    if (useRedis) await deletePrefix(options.redisUrl, prefix).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** A file is shown by its first lines; the rest is in the file, as in Slack's preview. */
function shorten(text: string, message: LocalMessage): string {
  if (message.kind !== 'file') return text;
  const lines = text.split('\n');
  const shown = 24;
  return lines.length <= shown
    ? text
    : [...lines.slice(0, shown), `… ${lines.length - shown} more lines in the file`].join('\n');
}

/** The run id is in the note the bot sends back through the response_url. */
async function waitForRunId(
  slack: LocalSlack,
  id: RegExp,
  timeoutMs: number,
  from = 0,
): Promise<string> {
  return waitUntil(
    'the bot to confirm the command',
    () => {
      for (const m of slack.messages.slice(from)) {
        if (m.kind !== 'response') continue;
        const found = id.exec(JSON.stringify(m.blocks ?? m.text))?.[0];
        if (found !== undefined) return found;
        if (/error code/.test(JSON.stringify(m.blocks))) {
          throw new Error(`the bot refused the command: ${m.text}`);
        }
      }
      return undefined;
    },
    timeoutMs,
  );
}

/** Polls `check` until it returns something; every wait of the story has this deadline. */
async function waitUntil<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The value of the button `actionId` in `blocks`. */
function buttonValue(blocks: readonly unknown[], actionId: string): string | undefined {
  for (const block of blocks) {
    const elements = (block as { elements?: unknown[] }).elements ?? [];
    for (const element of elements) {
      const e = element as { action_id?: unknown; value?: unknown };
      if (e.action_id === actionId && typeof e.value === 'string') return e.value;
    }
  }
  return undefined;
}
