/**
 * ChatPort over the Slack Web API, made to survive Slack: writes are paced per channel (about
 * one a second) with queued edits of one message coalesced; a 429 is waited out for as long as
 * Slack asks, within the call's deadline; transient failures back off; a refusal is final at
 * once. A post whose answer never came (a timeout) may be in the channel already, so a post
 * with a key carries it in the message metadata and the channel is searched for it before it
 * is sent again: a slow Slack never gets a second card. A channel the bot cannot post in costs
 * one log line and a metric naming it, not a retry storm.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebClient } from '@slack/web-api';
import type { Metrics } from '../metrics.js';
import type { ChatMessage, ChatPort, FileUpload, PostOptions } from '../../ports/chat.js';
import { nextSlackAttempt, type SlackFailure } from '../../core/slack-call-policy.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { fitMessage, REPLY_LIMITS } from '../../views/fit.js';
import { ChannelPacer, SLACK_CHANNEL_PACE, type PacerOptions } from './channel-pacer.js';
import { slackCodeOf, slackError, slackFailure, CHANNEL_UNAVAILABLE_ERRORS } from './errors.js';

/** Text and blocks as sent: fitted to Slack's limits, so no message is refused for its size. */
function wire(message: ChatMessage): { text: string; blocks?: ChatMessage['blocks'] } {
  const fitted = fitMessage(message, { textMax: REPLY_LIMITS.slackText });
  return {
    text: fitted.text,
    ...(fitted.blocks === undefined ? {} : { blocks: fitted.blocks }),
  };
}

/** The longest one call waits out 429s and transient failures before it gives up. */
export const SLACK_CALL_DEADLINE_MS = 5 * 60_000;
/** A response_url post that takes longer than this has failed. */
const RESPONSE_URL_TIMEOUT_MS = 10_000;
/** One log line per unavailable channel (and error) in this long; the metric counts every call. */
const CHANNEL_LOG_QUIET_MS = 10 * 60_000;
/** The metadata event type that marks the bot's keyed posts (see `post`). */
export const POST_EVENT_TYPE = 'proxy_migrate_post';
/** Slack lets a response_url be used for 30 minutes. */
const RESPONSE_URL_LIFETIME_MS = 30 * 60_000;
/** Response URLs kept at most (the oldest forgotten first). */
const RESPONSE_URLS_KEPT = 5_000;
/** How far back the history is searched for a keyed post whose answer was lost. */
const RECONCILE_LIMIT = 100;

export interface SlackChatOptions {
  logger?: Logger;
  metrics?: Pick<Metrics, 'slackApiCalls' | 'slackChannelUnavailable'>;
  deadlineMs?: number;
  pace?: PacerOptions;
}

type Outcome =
  'ok' | 'rate_limited' | 'transient' | 'uncertain' | 'channel_unavailable' | 'refused';

function outcomeOf(failure: SlackFailure, error: unknown): Outcome {
  if (failure.kind === 'rate-limited') return 'rate_limited';
  if (failure.kind === 'transient') return 'transient';
  if (failure.kind === 'uncertain') return 'uncertain';
  return CHANNEL_UNAVAILABLE_ERRORS.has(slackCodeOf(error) ?? '')
    ? 'channel_unavailable'
    : 'refused';
}

interface CallOptions<T> {
  /** Paced in this channel's lane. */
  channel?: string;
  /** Queued edits of the same message: only the newest is sent. */
  coalesce?: { key: string; seq: number };
  /** After an attempt whose outcome is unknown: what that attempt did, if it did. */
  reconcile?: () => Promise<T | undefined>;
  /** Called once an attempt's outcome was unknown. */
  onUncertain?: () => void;
}

interface HistoryMessage {
  ts?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
}

export class SlackChat implements ChatPort {
  private readonly pacer: ChannelPacer;
  private readonly deadlineMs: number;
  private readonly logger: Logger | undefined;
  /** Channel + error → when it was last logged. */
  private readonly channelLogged = new Map<string, number>();
  /** Keys of posts whose last attempt's outcome is unknown: look before posting them again. */
  private readonly uncertain = new Set<string>();
  private seq = 0;
  private readonly responseUrls = new Map<string, { url: string; until: number }>();

  constructor(
    private readonly client: WebClient,
    private readonly options: SlackChatOptions = {},
  ) {
    this.pacer = new ChannelPacer(options.pace ?? SLACK_CHANNEL_PACE);
    this.deadlineMs = options.deadlineMs ?? SLACK_CALL_DEADLINE_MS;
    this.logger = options.logger?.child({ component: 'slack-chat' });
  }

  async post(
    channel: string,
    message: ChatMessage,
    options: PostOptions = {},
  ): Promise<{ ts: string }> {
    const { key, threadTs } = options;
    const find = key === undefined ? undefined : () => this.findPosted(channel, key, threadTs);
    if (
      key !== undefined &&
      find !== undefined &&
      (this.uncertain.has(key) || options.mayExist === true)
    ) {
      const ts = await find().catch(() => undefined);
      if (ts !== undefined) {
        this.uncertain.delete(key);
        return { ts };
      }
    }
    const ts = await this.call(
      'chat.postMessage',
      async () =>
        (
          await this.client.chat.postMessage({
            channel,
            ...wire(message),
            ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
            ...(key === undefined
              ? {}
              : { metadata: { event_type: POST_EVENT_TYPE, event_payload: { key } } }),
            unfurl_links: false,
            unfurl_media: false,
          })
        ).ts,
      {
        channel,
        ...(find === undefined ? {} : { reconcile: find }),
        ...(key === undefined ? {} : { onUncertain: () => this.uncertain.add(key) }),
      },
    );
    if (key !== undefined) this.uncertain.delete(key);
    if (ts === undefined) {
      throw new AppError('SLACK_API_ERROR', 'Slack accepted chat.postMessage but returned no ts.', {
        remedy: 'Check SLACK_API_URL points at the Slack Web API; the bot retries.',
        retryable: true,
      });
    }
    return { ts };
  }

  async update(channel: string, ts: string, message: ChatMessage): Promise<void> {
    this.seq += 1;
    await this.call(
      'chat.update',
      () => this.client.chat.update({ channel, ts, ...wire(message) }),
      { channel, coalesce: { key: `${channel}:${ts}`, seq: this.seq } },
    );
  }

  async postEphemeral(
    channel: string,
    user: string,
    message: ChatMessage,
    options: PostOptions = {},
  ): Promise<void> {
    await this.call(
      'chat.postEphemeral',
      () =>
        this.client.chat.postEphemeral({
          channel,
          user,
          ...wire(message),
          ...(options.threadTs === undefined ? {} : { thread_ts: options.threadTs }),
        }),
      { channel },
    );
  }

  async uploadFile(channel: string, file: FileUpload): Promise<void> {
    const common = {
      content: file.content,
      filename: file.filename,
      title: file.title,
      ...(file.comment === undefined ? {} : { initial_comment: file.comment }),
    };
    await this.call(
      'files.uploadV2',
      () =>
        // The SDK's types want a thread-or-channel union, not one object with an optional thread.
        file.threadTs === undefined
          ? this.client.filesUploadV2({ ...common, channel_id: channel })
          : this.client.filesUploadV2({ ...common, channel_id: channel, thread_ts: file.threadTs }),
      { channel },
    );
  }

  async openDirect(user: string): Promise<string> {
    const result = await this.call('conversations.open', () =>
      this.client.conversations.open({ users: user }),
    );
    const id = result.channel?.id;
    if (id === undefined) {
      throw new AppError('SLACK_API_ERROR', 'Slack opened no direct message channel.', {
        remedy: 'Add the im:write scope from deploy/slack-app-manifest.yaml and reinstall the app.',
      });
    }
    return id;
  }

  /**
   * Keeps the response_url of the command that started `runId`, in this process only and for
   * its 30 minutes: it is a credential of sorts, so it never goes to Redis or a log.
   */
  rememberResponseUrl(runId: string, responseUrl: string): void {
    const now = Date.now();
    for (const [id, kept] of this.responseUrls) if (kept.until <= now) this.responseUrls.delete(id);
    this.responseUrls.set(runId, { url: responseUrl, until: now + RESPONSE_URL_LIFETIME_MS });
    if (this.responseUrls.size > RESPONSE_URLS_KEPT) {
      const oldest = this.responseUrls.keys().next().value;
      if (oldest !== undefined) this.responseUrls.delete(oldest);
    }
  }

  async respondToRun(runId: string, message: ChatMessage): Promise<void> {
    const kept = this.responseUrls.get(runId);
    if (kept === undefined || kept.until <= Date.now()) {
      throw new AppError('SLACK_API_ERROR', 'No live response_url for this run in this process.', {
        remedy: 'The command was taken by another replica or more than 30 minutes ago.',
      });
    }
    await this.respond(kept.url, message);
  }

  async respond(responseUrl: string, message: ChatMessage): Promise<void> {
    let status: number;
    try {
      const response = await fetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          response_type: 'ephemeral',
          replace_original: false,
          ...wire(message),
        }),
        redirect: 'error',
        signal: AbortSignal.timeout(RESPONSE_URL_TIMEOUT_MS),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (error) {
      this.count('response_url', 'uncertain');
      throw new AppError(
        'SLACK_API_ERROR',
        'Slack could not be reached for a response_url reply.',
        {
          remedy: 'Check the network path to Slack; the reply is lost.',
          retryable: true,
          cause: error,
        },
      );
    }
    if (status >= 200 && status < 300) {
      this.count('response_url', 'ok');
      return;
    }
    this.count('response_url', 'refused');
    throw new AppError(
      'SLACK_API_ERROR',
      `Slack refused the response_url reply (HTTP ${status}): it expired or was used up.`,
      {
        remedy: 'A response_url works five times within 30 minutes; the bot posts instead.',
        details: { status },
      },
    );
  }

  /** The ts of the bot's post carrying `key`, in the thread or the channel, if Slack has it. */
  private async findPosted(
    channel: string,
    key: string,
    threadTs: string | undefined,
  ): Promise<string | undefined> {
    const messages: HistoryMessage[] =
      threadTs === undefined
        ? ((
            await this.call('conversations.history', () =>
              this.client.conversations.history({
                channel,
                limit: RECONCILE_LIMIT,
                include_all_metadata: true,
              }),
            )
          ).messages ?? [])
        : ((
            await this.call('conversations.replies', () =>
              this.client.conversations.replies({
                channel,
                ts: threadTs,
                limit: RECONCILE_LIMIT,
                include_all_metadata: true,
              }),
            )
          ).messages ?? []);
    const found = messages.find(
      (m) =>
        m.metadata?.event_type === POST_EVENT_TYPE && m.metadata.event_payload?.['key'] === key,
    );
    if (found?.ts !== undefined) {
      this.logger?.info(
        { channel, key },
        'a post whose answer was lost is in Slack: not posting it again',
      );
    }
    return found?.ts;
  }

  private count(method: string, outcome: Outcome): void {
    this.options.metrics?.slackApiCalls.inc({ method, outcome });
  }

  private channelUnavailable(channel: string | undefined, method: string, slackCode: string): void {
    const name = channel ?? 'unknown';
    this.options.metrics?.slackChannelUnavailable.inc({ channel: name, error: slackCode });
    const key = `${name}:${slackCode}`;
    const last = this.channelLogged.get(key);
    if (last !== undefined && Date.now() - last < CHANNEL_LOG_QUIET_MS) return;
    this.channelLogged.set(key, Date.now());
    this.logger?.warn(
      { channel: name, method, slackCode },
      'the bot cannot post in this channel: invite it (/invite @proxy-migrate) or fix the clusters file; not retrying',
    );
  }

  /**
   * One Web API call, attempted until it succeeds, is refused, or its deadline passes. Every
   * attempt is paced in the channel's lane and counted by outcome.
   */
  private async call<T>(
    method: string,
    send: () => Promise<T>,
    options: CallOptions<T> = {},
  ): Promise<T> {
    const started = Date.now();
    const deadline = started + this.deadlineMs;
    const attemptOnce = async (): Promise<T> => {
      const value = await send();
      this.count(method, 'ok');
      return value;
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        return options.channel === undefined
          ? await attemptOnce()
          : await this.pacer.run(options.channel, attemptOnce, options.coalesce);
      } catch (error) {
        const failure = slackFailure(error);
        const outcome = outcomeOf(failure, error);
        this.count(method, outcome);
        if (outcome === 'channel_unavailable') {
          this.channelUnavailable(options.channel, method, slackCodeOf(error) ?? 'unknown');
        }
        if (failure.kind === 'uncertain') options.onUncertain?.();
        const decision = nextSlackAttempt(failure, attempt, deadline - Date.now(), Math.random());
        if (decision.action === 'give-up') {
          throw slackError(error, method, {
            ...(options.channel === undefined ? {} : { channel: options.channel }),
            ...(decision.reason === 'deadline' ? { waitedMs: Date.now() - started } : {}),
          });
        }
        if (failure.kind === 'rate-limited' && options.channel !== undefined) {
          this.pacer.pause(options.channel, Date.now() + decision.afterMs);
        }
        this.logger?.[attempt === 1 ? 'info' : 'debug'](
          { method, channel: options.channel, outcome, attempt, retryInMs: decision.afterMs },
          'Slack call failed; retrying',
        );
        await sleep(decision.afterMs);
        if (decision.reconcile && options.reconcile !== undefined) {
          const done = await options.reconcile().catch((lookError: unknown) => {
            this.logger?.warn(
              { err: slackError(lookError, method), method, channel: options.channel },
              'could not look for a post whose answer was lost; posting again',
            );
            return undefined;
          });
          if (done !== undefined) return done;
        }
      }
    }
  }
}
