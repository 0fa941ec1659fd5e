import { checkBlocks, type BlocksProblem } from './slack-limits.js';
import type { Args } from './slack-wire.js';

/**
 * The state behind the fake Web API: channels as message lists, ephemerals, files and user groups,
 * and one handler per supported method. Transport concerns (auth, injections, recording) live in
 * fake-slack.ts so each handler reads like Slack's documented behaviour.
 */

export interface FakeMessage {
  channel: string;
  ts: string;
  /** Always the thread's root ts: replying to a reply lands in the root's thread, as in Slack. */
  thread_ts?: string;
  text: string;
  blocks: unknown[];
  user: string;
  /** How many times chat.update (or a replace_original response) rewrote this message. */
  updates: number;
  /** The `metadata` the poster attached (`event_type`, `event_payload`). */
  metadata?: Args;
}

export interface FakeEphemeral {
  channel: string;
  user: string;
  message_ts: string;
  thread_ts?: string;
  text: string;
  blocks: unknown[];
}

export interface FakeView {
  id: string;
  trigger_id: string;
  view: Record<string, unknown>;
}

export interface FakeFile {
  id: string;
  filename: string;
  title: string;
  /** The bytes the client uploaded; `text` is the same decoded as UTF-8. */
  content: Buffer;
  text: string;
  channel?: string;
  thread_ts?: string;
  initial_comment?: string;
}

export interface Reply {
  status: number;
  body: Args;
  headers?: Record<string, string>;
}

export interface Identity {
  baseUrl: () => string;
  teamId: string;
  enterpriseId?: string;
  botUserId: string;
  botId: string;
}

interface PendingUpload {
  id: string;
  filename: string;
  length: number;
  content?: Buffer;
}

export const ok = (body: Args = {}): Reply => ({ status: 200, body: { ok: true, ...body } });

export const fail = (error: string, extra: Args = {}): Reply => ({
  status: 200,
  body: { ok: false, error, ...extra },
});

/** Slack's shape for refused blocks: `errors` plus `[ERROR]` lines that WebClient logs. */
export const blocksFailure = (problem: BlocksProblem, status = 200): Reply => ({
  status,
  body: {
    ok: false,
    error: problem.error,
    errors: problem.reasons,
    response_metadata: { messages: problem.reasons.map((reason) => `[ERROR] ${reason}`) },
  },
});

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const hasItems = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

/** Blocks validation and the text-or-blocks rule shared by every message-writing method. */
function contentProblem(args: Args): Reply | undefined {
  if (args.blocks !== undefined) {
    const problem = checkBlocks(args.blocks);
    if (problem) return blocksFailure(problem);
  }
  if (!str(args.text) && !hasItems(args.blocks) && !hasItems(args.attachments))
    return fail('no_text');
  return undefined;
}

const blocksOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export class SlackWorkspace {
  readonly messages: FakeMessage[] = [];
  readonly ephemerals: FakeEphemeral[] = [];
  readonly files: FakeFile[] = [];
  readonly userGroups = new Map<string, string[]>();
  /** Modals opened with views.open, newest last. */
  readonly views: FakeView[] = [];
  private readonly pendingUploads = new Map<string, PendingUpload>();
  // Never reset, so a ts or file id seen before reset() can't be confused with a later one.
  private tsCounter = 0;
  private fileCounter = 0;

  readonly methods: Readonly<Record<string, (args: Args) => Reply>> = {
    'auth.test': () => this.authTest(),
    'chat.postMessage': (args) => this.postMessage(args),
    'chat.update': (args) => this.update(args),
    'chat.postEphemeral': (args) => this.postEphemeral(args),
    'files.getUploadURLExternal': (args) => this.getUploadUrl(args),
    'files.completeUploadExternal': (args) => this.completeUpload(args),
    'usergroups.users.list': (args) => this.userGroupMembers(args),
    'views.open': (args) => this.openView(args),
    'conversations.open': (args) => this.openDirect(args),
    'conversations.history': (args) => this.history(args),
    'conversations.replies': (args) => this.replies(args),
  };
  /** Direct message channels opened with conversations.open: channel id → user. */
  readonly directs = new Map<string, string>();

  constructor(private readonly identity: Identity) {}

  clear(): void {
    this.messages.length = 0;
    this.ephemerals.length = 0;
    this.files.length = 0;
    this.views.length = 0;
    this.directs.clear();
    this.pendingUploads.clear();
  }

  findMessage(channel: string, ts: string): FakeMessage | undefined {
    return this.messages.find((message) => message.channel === channel && message.ts === ts);
  }

  /** Stores uploaded bytes; false when the upload URL was never handed out. */
  receiveUpload(fileId: string, content: Buffer): boolean {
    const pending = this.pendingUploads.get(fileId);
    if (!pending) return false;
    pending.content = content;
    return true;
  }

  /** Applies a response_url `replace_original` / `delete_original` to the message it came from. */
  applyResponse(target: { channel: string; ts: string }, body: Args): void {
    const message = this.findMessage(target.channel, target.ts);
    if (!message) return;
    if (body.delete_original === true || body.delete_original === 'true') {
      this.messages.splice(this.messages.indexOf(message), 1);
    } else if (body.replace_original === true || body.replace_original === 'true') {
      message.text = typeof body.text === 'string' ? body.text : '';
      message.blocks = blocksOf(body.blocks);
      message.updates += 1;
    }
  }

  private nextTs(): string {
    this.tsCounter += 1;
    const micros = this.tsCounter * 100;
    const seconds = 1_700_000_000 + Math.floor(micros / 1_000_000);
    return `${seconds}.${String(micros % 1_000_000).padStart(6, '0')}`;
  }

  private wireMessage(message: FakeMessage, withMetadata = true): Args {
    const { text, blocks, user, ts, thread_ts: threadTs, metadata } = message;
    const { botId, teamId } = this.identity;
    return {
      type: 'message',
      user,
      bot_id: botId,
      team: teamId,
      text,
      blocks,
      ts,
      thread_ts: threadTs,
      ...(withMetadata && metadata !== undefined ? { metadata } : {}),
    };
  }

  /** conversations.open with one user: a D… channel the bot can post in. */
  private openDirect(args: Args): Reply {
    const users = str(args.users);
    if (!users || users.includes(',')) return fail('invalid_arguments');
    if (users === this.identity.botUserId) return fail('cannot_dm_bot');
    const id = `D${users}`;
    this.directs.set(id, users);
    return ok({ channel: { id } });
  }

  /** conversations.history: top-level messages, newest first; metadata only when asked for. */
  private history(args: Args): Reply {
    const channel = str(args.channel);
    if (!channel) return fail('channel_not_found');
    const limit = Math.min(Number(args.limit ?? 100) || 100, 999);
    const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
    const top = this.messages
      .filter((m) => m.channel === channel && (m.thread_ts === undefined || m.thread_ts === m.ts))
      .reverse();
    return ok({
      messages: top.slice(0, limit).map((m) => this.wireMessage(m, withMetadata)),
      has_more: top.length > limit,
    });
  }

  /** conversations.replies: the thread's root then its replies, oldest first. */
  private replies(args: Args): Reply {
    const channel = str(args.channel);
    const ts = str(args.ts);
    if (!channel) return fail('channel_not_found');
    const root = ts === undefined ? undefined : this.findMessage(channel, ts);
    if (!root) return fail('thread_not_found');
    const rootTs = root.thread_ts ?? root.ts;
    const limit = Math.min(Number(args.limit ?? 100) || 100, 999);
    const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
    const thread = this.messages.filter(
      (m) => m.channel === channel && (m.ts === rootTs || m.thread_ts === rootTs),
    );
    return ok({
      messages: thread.slice(0, limit).map((m) => this.wireMessage(m, withMetadata)),
      has_more: thread.length > limit,
    });
  }

  private authTest(): Reply {
    const { teamId, botUserId, botId } = this.identity;
    return ok({
      url: `${this.identity.baseUrl()}/`,
      team: 'Fake Team',
      user: 'proxy-migrate',
      team_id: teamId,
      user_id: botUserId,
      bot_id: botId,
      ...(this.identity.enterpriseId === undefined
        ? {}
        : { enterprise_id: this.identity.enterpriseId }),
      is_enterprise_install: false,
    });
  }

  private postMessage(args: Args): Reply {
    const channel = str(args.channel);
    if (!channel) return fail('channel_not_found');
    if (channel.startsWith('CNOTIN')) return fail('not_in_channel');
    const problem = contentProblem(args);
    if (problem) return problem;
    const threadTs = str(args.thread_ts);
    let root: string | undefined;
    if (threadTs) {
      const parent = this.findMessage(channel, threadTs);
      if (!parent) return fail('thread_not_found');
      root = parent.thread_ts ?? parent.ts;
    }
    const message: FakeMessage = {
      channel,
      ts: this.nextTs(),
      ...(root ? { thread_ts: root } : {}),
      text: str(args.text) ?? '',
      blocks: blocksOf(args.blocks),
      user: this.identity.botUserId,
      updates: 0,
      ...(typeof args.metadata === 'object' && args.metadata !== null
        ? { metadata: args.metadata as Args }
        : {}),
    };
    this.messages.push(message);
    return ok({ channel, ts: message.ts, message: this.wireMessage(message) });
  }

  private update(args: Args): Reply {
    const channel = str(args.channel);
    if (!channel) return fail('channel_not_found');
    const message = this.findMessage(channel, str(args.ts) ?? '');
    if (!message) return fail('message_not_found');
    const problem = contentProblem(args);
    if (problem) return problem;
    // Like Slack, an omitted field keeps its previous value rather than clearing it.
    if (typeof args.text === 'string') message.text = args.text;
    if (args.blocks !== undefined) message.blocks = blocksOf(args.blocks);
    message.updates += 1;
    const { ts, text } = message;
    return ok({ channel, ts, text, message: this.wireMessage(message) });
  }

  private postEphemeral(args: Args): Reply {
    const channel = str(args.channel);
    if (!channel) return fail('channel_not_found');
    if (channel.startsWith('CNOTIN')) return fail('not_in_channel');
    const user = str(args.user);
    if (!user) return fail('user_not_in_channel');
    const problem = contentProblem(args);
    if (problem) return problem;
    const threadTs = str(args.thread_ts);
    const ephemeral: FakeEphemeral = {
      channel,
      user,
      message_ts: this.nextTs(),
      ...(threadTs ? { thread_ts: threadTs } : {}),
      text: str(args.text) ?? '',
      blocks: blocksOf(args.blocks),
    };
    this.ephemerals.push(ephemeral);
    return ok({ message_ts: ephemeral.message_ts });
  }

  private getUploadUrl(args: Args): Reply {
    const filename = str(args.filename);
    // Form encoding turns WebClient's numeric length into a string.
    const length = Number(args.length);
    if (!filename || !Number.isInteger(length) || length < 0) return fail('invalid_arguments');
    this.fileCounter += 1;
    const id = `F0FAKE${String(this.fileCounter).padStart(4, '0')}`;
    this.pendingUploads.set(id, { id, filename, length });
    return ok({ upload_url: `${this.identity.baseUrl()}/upload/${id}`, file_id: id });
  }

  private completeUpload(args: Args): Reply {
    const requested = args.files;
    if (!Array.isArray(requested) || requested.length === 0) return fail('invalid_arguments');
    const channel = str(args.channel_id);
    const threadTs = str(args.thread_ts);
    if (channel?.startsWith('CNOTIN')) return fail('not_in_channel');
    if (channel && threadTs && !this.findMessage(channel, threadTs))
      return fail('thread_not_found');
    const uploads: { pending: PendingUpload & { content: Buffer }; title: string }[] = [];
    for (const entry of requested as unknown[]) {
      const { id, title } = (typeof entry === 'object' && entry !== null ? entry : {}) as Args;
      const pending = this.pendingUploads.get(typeof id === 'string' ? id : '');
      // Unknown ids and ids whose bytes never arrived are both a file Slack can't find.
      if (!pending?.content) return fail('file_not_found');
      uploads.push({
        pending: { ...pending, content: pending.content },
        title: str(title) ?? pending.filename,
      });
    }
    const comment = str(args.initial_comment);
    const completed = uploads.map(({ pending, title }): FakeFile => {
      this.pendingUploads.delete(pending.id);
      const file: FakeFile = {
        id: pending.id,
        filename: pending.filename,
        title,
        content: pending.content,
        text: pending.content.toString('utf8'),
        ...(channel ? { channel } : {}),
        ...(channel && threadTs ? { thread_ts: threadTs } : {}),
        ...(comment ? { initial_comment: comment } : {}),
      };
      this.files.push(file);
      return file;
    });
    return ok({
      files: completed.map((file) => ({
        id: file.id,
        name: file.filename,
        title: file.title,
        size: file.content.length,
        permalink: `${this.identity.baseUrl()}/files/${file.id}`,
      })),
    });
  }

  /** views.open: a trigger id and a modal with a callback id, as Slack requires. */
  private openView(args: Args): Reply {
    const triggerId = str(args.trigger_id);
    if (!triggerId) return fail('invalid_trigger_id');
    const view = (typeof args.view === 'string' ? JSON.parse(args.view) : args.view) as
      Record<string, unknown> | undefined;
    if (view?.type !== 'modal' || !Array.isArray(view.blocks)) return fail('invalid_arguments');
    const id = `V${String(this.views.length + 1).padStart(8, '0')}`;
    this.views.push({ id, trigger_id: triggerId, view });
    return ok({ view: { id, ...view } });
  }

  private userGroupMembers(args: Args): Reply {
    const users = this.userGroups.get(str(args.usergroup) ?? '');
    return users ? ok({ users: [...users] }) : fail('no_such_subteam');
  }
}
