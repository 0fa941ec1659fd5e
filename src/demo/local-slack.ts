/**
 * A local stand-in for the slice of Slack's Web API the bot uses, so the demo runs the real bot
 * stack (Bolt, WebClient, the queue) with no Slack workspace. Every message it receives is
 * handed to `onMessage`, which the demo prints. Not for production: it accepts any token.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type MessageKind = 'post' | 'update' | 'ephemeral' | 'response' | 'file';

export interface LocalMessage {
  kind: MessageKind;
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  blocks?: unknown[];
}

export interface LocalView {
  id: string;
  view: Record<string, unknown>;
}

export interface LocalSlack {
  apiUrl: string;
  /** A response_url for one slash command (Bolt's respond() posts there). */
  responseUrl(): string;
  messages: LocalMessage[];
  /** Modals the bot opened (views.open), newest last. */
  views: LocalView[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Args = Record<string, unknown>;

/** An argument as a string ('' when absent or not a string). */
const str = (a: Args, key: string): string => {
  const v = a[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
};

/** The message parts of chat.* arguments. */
function content(a: Args): Pick<LocalMessage, 'text' | 'blocks' | 'threadTs'> {
  return {
    text: str(a, 'text'),
    ...(Array.isArray(a['blocks']) ? { blocks: a['blocks'] as unknown[] } : {}),
    ...(str(a, 'thread_ts') === '' ? {} : { threadTs: str(a, 'thread_ts') }),
  };
}

/** WebClient posts form-encoded arguments with `blocks` and `files` as JSON strings. */
function parseArgs(req: IncomingMessage, body: Buffer): Args {
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json'))
    return JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body.toString('utf8'))) {
    args[key] = ['blocks', 'files', 'attachments'].includes(key) ? JSON.parse(value) : value;
  }
  return args;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startLocalSlack(
  onMessage: (message: LocalMessage) => void,
): Promise<LocalSlack> {
  const messages: LocalMessage[] = [];
  const uploads = new Map<string, { filename: string; content?: string }>();
  const views: LocalView[] = [];
  let seq = 0;
  const nextTs = (): string =>
    `${Math.floor(Date.now() / 1000)}.${String((seq += 1)).padStart(6, '0')}`;
  let base = '';
  const record = (message: LocalMessage): void => {
    messages.push(message);
    onMessage(message);
  };

  const handlers: Record<string, (a: Args) => Args> = {
    'auth.test': () => ({
      ok: true,
      url: 'https://demo.slack.local/',
      team: 'demo',
      user: 'proxy-migrate',
      team_id: 'T0DEMO',
      user_id: 'U0BOT',
      bot_id: 'B0BOT',
    }),
    'chat.postMessage': (a) => {
      const ts = nextTs();
      record({ kind: 'post', channel: str(a, 'channel'), ts, ...content(a) });
      return { ok: true, channel: str(a, 'channel'), ts };
    },
    'chat.update': (a) => {
      record({ kind: 'update', channel: str(a, 'channel'), ts: str(a, 'ts'), ...content(a) });
      return { ok: true, channel: str(a, 'channel'), ts: str(a, 'ts') };
    },
    'chat.postEphemeral': (a) => {
      const ts = nextTs();
      record({ kind: 'ephemeral', channel: str(a, 'channel'), ts, ...content(a) });
      return { ok: true, message_ts: ts };
    },
    'files.getUploadURLExternal': (a) => {
      const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
      uploads.set(id, { filename: str(a, 'filename') || 'file' });
      return { ok: true, file_id: id, upload_url: `${base}/upload/${id}` };
    },
    'files.completeUploadExternal': (a) => {
      const files = Array.isArray(a['files'])
        ? (a['files'] as { id: string; title?: string }[])
        : [];
      for (const file of files) {
        const upload = uploads.get(file.id);
        record({
          kind: 'file',
          channel: str(a, 'channel_id'),
          ts: nextTs(),
          ...content({ thread_ts: a['thread_ts'] }),
          text: `${file.title ?? upload?.filename ?? 'file'}\n${upload?.content ?? ''}`,
        });
      }
      return { ok: true, files };
    },
    'usergroups.users.list': () => ({ ok: true, users: [] }),
    'views.open': (a) => {
      const view = (typeof a['view'] === 'string' ? JSON.parse(a['view']) : a['view']) as Args;
      const id = `V${String((seq += 1)).padStart(8, '0')}`;
      views.push({ id, view });
      return { ok: true, view: { id, ...view } };
    },
  };

  const upload = async (req: IncomingMessage, id: string, body: Buffer): Promise<void> => {
    // The client sends the bytes as multipart form data; the one part is the file.
    const entry = uploads.get(id);
    if (entry === undefined) return;
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(key, value);
    const form = await new Request('http://local', { method: 'POST', headers, body })
      .formData()
      .catch(() => undefined);
    const part = form === undefined ? undefined : [...form.values()][0];
    entry.content =
      typeof part === 'string'
        ? part
        : part === undefined
          ? body.toString('utf8')
          : await part.text();
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      const body = await readBody(req);
      if (url.startsWith('/upload/')) {
        await upload(req, url.slice('/upload/'.length), body);
        res.writeHead(200);
        res.end('OK');
        return;
      }
      if (url.startsWith('/respond/')) {
        record({ kind: 'response', channel: '', ts: nextTs(), ...content(parseArgs(req, body)) });
        reply(res, 200, { ok: true });
        return;
      }
      const method = url.replace(/^\/api\//, '').split('?')[0] ?? '';
      const handler = handlers[method];
      reply(
        res,
        200,
        handler === undefined
          ? { ok: false, error: 'unknown_method' }
          : handler(parseArgs(req, body)),
      );
    })().catch((error: unknown) => reply(res, 500, { ok: false, error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${base}/api/`,
    responseUrl: () => `${base}/respond/${randomBytes(4).toString('hex')}`,
    messages,
    views,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
