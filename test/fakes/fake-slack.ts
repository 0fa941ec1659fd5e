import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';
import { ResponseUrls, type RecordedResponse, type ResponseTarget } from './response-urls.js';
import {
  bearerToken,
  decodeJsonFields,
  parseArgs,
  readBody,
  sendJson,
  uploadedBytes,
  type Args,
} from './slack-wire.js';
import {
  SlackWorkspace,
  fail,
  ok,
  type FakeEphemeral,
  type FakeFile,
  type FakeView,
  type FakeMessage,
  type Reply,
} from './slack-workspace.js';

export { checkBlocks, validateBlocks, blockTextLength, slackLimits } from './slack-limits.js';
export type { BlocksErrorCode, BlocksProblem } from './slack-limits.js';
export type { FakeEphemeral, FakeFile, FakeMessage, FakeView } from './slack-workspace.js';
export type { RecordedResponse, ResponseTarget } from './response-urls.js';

/**
 * A local stand-in for Slack's Web API and response_urls, spoken to over real HTTP so the product's
 * own WebClient and Bolt code run unmodified. Point WebClient at `apiUrl`.
 */

export interface FakeSlackOptions {
  botToken?: string;
  teamId?: string;
  /** auth.test's enterprise_id: the workspace is part of this Enterprise Grid org. */
  enterpriseId?: string;
  botUserId?: string;
  botId?: string;
  /** User group id → member user ids, for usergroups.users.list. */
  userGroups?: Record<string, string[]>;
}

export interface RecordedCall {
  method: string;
  /** Decoded arguments: `blocks`, `attachments`, `files`, `metadata` as objects; no `token`. */
  args: Args;
  /** From `Authorization: Bearer` or else the `token` argument. */
  token: string | undefined;
  at: number;
  status: number;
  /** The JSON body the fake answered with. */
  response: Args;
}

export type ChannelError = 'channel_not_found' | 'not_in_channel' | 'is_archived';

export type WaitPredicate<T> = (fake: FakeSlack) => T | false | null | undefined;

export interface FakeSlack {
  readonly url: string;
  /** `${url}/api/` with the trailing slash WebClient's `slackApiUrl` expects. */
  readonly apiUrl: string;
  readonly botToken: string;
  readonly teamId: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly calls: readonly RecordedCall[];
  /** Every POST to a response_url, including refused ones (see `status`). */
  readonly responses: readonly RecordedResponse[];
  readonly messages: readonly FakeMessage[];
  readonly ephemerals: readonly FakeEphemeral[];
  readonly files: readonly FakeFile[];
  readonly views: readonly FakeView[];
  responseUrl(id?: string, target?: ResponseTarget): string;
  callsTo(method: string): RecordedCall[];
  findMessage(channel: string, ts: string): FakeMessage | undefined;
  waitFor<T>(predicate: WaitPredicate<T>, timeoutMs?: number, description?: string): Promise<T>;
  waitForCall(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  injectError(method: string, error: string, times?: number): void;
  injectRateLimit(method: string, retryAfterSeconds: number, times?: number): void;
  /** Every call to `method` answers 429 with `Retry-After` for the next `durationMs`. */
  rateLimitFor(method: string, durationMs: number, retryAfterSeconds: number): void;
  /**
   * Calls naming `channel` (as `channel` or `channel_id`) answer `error` from now on, for the
   * given methods (default every method), as when the channel is deleted or the bot removed.
   */
  failChannel(channel: string, error: ChannelError, methods?: readonly string[]): void;
  restoreChannel(channel: string): void;
  /**
   * The next `times` calls to `method` are carried out at once but answered only after
   * `delayMs`: a client that times out first never learns that they succeeded.
   */
  slowAnswers(method: string, delayMs: number, times?: number): void;
  /** Every response_url (or the one with this id) answers 404 expired_url from now on. */
  expireResponseUrls(id?: string): void;
  setUserGroup(id: string, users: string[]): void;
  reset(): void;
  close(): Promise<void>;
}

class FakeSlackServer implements FakeSlack {
  url = '';
  readonly botToken: string;
  readonly teamId: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly calls: RecordedCall[] = [];
  private readonly workspace: SlackWorkspace;
  private readonly responseUrls: ResponseUrls;
  private readonly injections = new Map<string, Reply[]>();
  private readonly rateLimits = new Map<string, { until: number; retryAfterSeconds: number }>();
  private readonly channelFaults = new Map<
    string,
    { error: ChannelError; methods: ReadonlySet<string> | undefined }
  >();
  private readonly slow = new Map<string, number[]>();
  readonly server: Server;

  constructor(options: FakeSlackOptions) {
    this.botToken = options.botToken ?? 'xoxb-test-token';
    this.teamId = options.teamId ?? 'T0TEST';
    this.botUserId = options.botUserId ?? 'U0BOT';
    this.botId = options.botId ?? 'B0BOT';
    this.workspace = new SlackWorkspace({
      baseUrl: () => this.url,
      teamId: this.teamId,
      ...(options.enterpriseId === undefined ? {} : { enterpriseId: options.enterpriseId }),
      botUserId: this.botUserId,
      botId: this.botId,
    });
    this.responseUrls = new ResponseUrls((target, body) =>
      this.workspace.applyResponse(target, body),
    );
    for (const [id, users] of Object.entries(options.userGroups ?? {}))
      this.setUserGroup(id, users);
    this.server = createServer((req, res) => {
      void this.route(req, res);
    });
  }

  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  get messages(): readonly FakeMessage[] {
    return this.workspace.messages;
  }

  get ephemerals(): readonly FakeEphemeral[] {
    return this.workspace.ephemerals;
  }

  get files(): readonly FakeFile[] {
    return this.workspace.files;
  }

  get views(): readonly FakeView[] {
    return this.workspace.views;
  }

  get responses(): readonly RecordedResponse[] {
    return this.responseUrls.records;
  }

  responseUrl(id?: string, target?: ResponseTarget): string {
    return `${this.url}/respond/${encodeURIComponent(this.responseUrls.register(id, target))}`;
  }

  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  findMessage(channel: string, ts: string): FakeMessage | undefined {
    return this.workspace.findMessage(channel, ts);
  }

  async waitFor<T>(
    predicate: WaitPredicate<T>,
    timeoutMs = 5000,
    description?: string,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    for (;;) {
      try {
        const value = predicate(this);
        if (value !== false && value !== null && value !== undefined) return value;
        lastError = undefined;
      } catch (error) {
        // Lets a predicate use expect(): its last failure explains the timeout.
        lastError = error;
      }
      if (Date.now() >= deadline)
        throw new Error(
          this.timeoutMessage(timeoutMs, description ?? String(predicate), lastError),
        );
      await sleep(10);
    }
  }

  waitForCall(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall> {
    return this.waitFor(
      (fake) => fake.calls.find((call) => call.method === method && (predicate?.(call) ?? true)),
      timeoutMs,
      `a call to ${method}${predicate ? ` matching ${String(predicate)}` : ''}`,
    );
  }

  injectError(method: string, error: string, times = 1): void {
    this.inject(method, fail(error), times);
  }

  injectRateLimit(method: string, retryAfterSeconds: number, times = 1): void {
    const reply: Reply = {
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': String(retryAfterSeconds) },
    };
    this.inject(method, reply, times);
  }

  rateLimitFor(method: string, durationMs: number, retryAfterSeconds: number): void {
    this.rateLimits.set(method, { until: Date.now() + durationMs, retryAfterSeconds });
  }

  failChannel(channel: string, error: ChannelError, methods?: readonly string[]): void {
    this.channelFaults.set(channel, {
      error,
      methods: methods === undefined ? undefined : new Set(methods),
    });
  }

  restoreChannel(channel: string): void {
    this.channelFaults.delete(channel);
  }

  slowAnswers(method: string, delayMs: number, times = 1): void {
    const queue = this.slow.get(method) ?? [];
    for (let i = 0; i < times; i += 1) queue.push(delayMs);
    this.slow.set(method, queue);
  }

  expireResponseUrls(id?: string): void {
    this.responseUrls.expire(id);
  }

  setUserGroup(id: string, users: string[]): void {
    this.workspace.userGroups.set(id, [...users]);
  }

  reset(): void {
    this.calls.length = 0;
    this.injections.clear();
    this.rateLimits.clear();
    this.channelFaults.clear();
    this.slow.clear();
    this.responseUrls.clear();
    this.workspace.clear();
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      // fetch keeps connections alive; without this close() waits for them to time out.
      this.server.closeAllConnections();
    });
  }

  private inject(method: string, reply: Reply, times: number): void {
    const queue = this.injections.get(method) ?? [];
    for (let i = 0; i < times; i += 1) queue.push(reply);
    this.injections.set(method, queue);
  }

  private timeoutMessage(timeoutMs: number, description: string, lastError: unknown): string {
    const calls = this.calls.map((call) => {
      const outcome = call.response.ok === true ? 'ok' : String(call.response.error);
      return `${call.method} → ${call.status} ${outcome}`;
    });
    const lines = [
      `fake Slack: timed out after ${timeoutMs}ms waiting for ${description}`,
      `calls so far (${calls.length}): ${calls.length ? calls.join(', ') : 'none'}`,
      `response_url posts: ${this.responses.length}, messages: ${this.messages.length}`,
    ];
    if (lastError !== undefined) {
      lines.push(
        `last predicate error: ${lastError instanceof Error ? lastError.message : inspect(lastError)}`,
      );
    }
    return lines.join('\n');
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', this.url);
      const raw = await readBody(req);
      const [, area = '', ...rest] = url.pathname.split('/');
      const name = decodeURIComponent(rest.join('/'));
      if (area === 'api') return await this.api(name, req, url, raw, res);
      if (area === 'respond' && req.method === 'POST') {
        const reply = this.responseUrls.receive(name, raw);
        return sendJson(res, reply.status, reply.body);
      }
      if (area === 'upload' && req.method === 'POST') return await this.upload(name, req, raw, res);
      sendJson(res, 404, { ok: false, error: 'not_found' });
    } catch (error) {
      sendJson(res, 500, { ok: false, error: 'fake_slack_error', detail: String(error) });
    }
  }

  private async api(
    method: string,
    req: IncomingMessage,
    url: URL,
    raw: Buffer,
    res: ServerResponse,
  ): Promise<void> {
    let parsed: Args | undefined;
    try {
      parsed = await parseArgs(raw, req.headers, url.searchParams);
    } catch {
      parsed = undefined;
    }
    const { token: formToken, ...args } = decodeJsonFields(parsed ?? {});
    const token =
      bearerToken(req.headers) ?? (typeof formToken === 'string' ? formToken : undefined);
    const reply = parsed ? this.dispatch(method, args, token) : fail('invalid_form_data');
    this.calls.push({
      method,
      args,
      token,
      at: Date.now(),
      status: reply.status,
      response: reply.body,
    });
    const delayMs = this.slow.get(method)?.shift();
    if (delayMs !== undefined) {
      // Done already; only the answer is late (the client may have hung up by then).
      await sleep(delayMs);
      if (res.destroyed || res.writableEnded) return;
    }
    sendJson(res, reply.status, reply.body, reply.headers);
  }

  private dispatch(method: string, args: Args, token: string | undefined): Reply {
    const injected = this.injections.get(method)?.shift();
    if (injected) return injected;
    const limited = this.rateLimits.get(method);
    if (limited !== undefined && Date.now() < limited.until) {
      return {
        status: 429,
        body: { ok: false, error: 'ratelimited' },
        headers: { 'retry-after': String(limited.retryAfterSeconds) },
      };
    }
    const channel = [args.channel, args.channel_id].find((c) => typeof c === 'string');
    const fault = typeof channel === 'string' ? this.channelFaults.get(channel) : undefined;
    if (fault !== undefined && (fault.methods === undefined || fault.methods.has(method))) {
      return fail(fault.error);
    }
    if (method === 'api.test') return ok({ args });
    const handler = this.workspace.methods[method];
    if (!handler) return fail('unknown_method');
    if (token !== this.botToken) return fail('invalid_auth');
    return handler(args);
  }

  private async upload(
    fileId: string,
    req: IncomingMessage,
    raw: Buffer,
    res: ServerResponse,
  ): Promise<void> {
    const content = await uploadedBytes(raw, req.headers);
    if (!this.workspace.receiveUpload(fileId, content)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('file not found');
      return;
    }
    // Slack's upload endpoint answers in plain text, not JSON.
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${content.length}`);
  }
}

/** Starts a fake Slack on 127.0.0.1 with an ephemeral port. Call `close()` when done. */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const fake = new FakeSlackServer(options);
  await new Promise<void>((resolve, reject) => {
    fake.server.once('error', reject);
    fake.server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = fake.server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  return fake;
}
