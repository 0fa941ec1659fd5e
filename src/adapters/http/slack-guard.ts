/**
 * The door in front of Bolt's listener on /slack/events. Before Bolt sees a request it must be a
 * POST of at most {@link SLACK_BODY_LIMIT_BYTES} (refused from its Content-Length, or while it
 * streams, never buffered whole), signed by Slack within five minutes either way, not seen
 * before, a body Bolt can dispatch without crashing, and sent for this installation's team,
 * Enterprise org and (when configured) app. Bolt is handed those same bytes and does not check
 * the signature a second time (three HMACs a request, a third of its ack under a burst): its
 * listener (adapters/slack/bolt-app.ts) refuses any request this guard did not pass
 * ({@link passedGuard}), so it cannot be mounted without it. Refusals are logged with a reason
 * word, never with headers or body.
 */
import { createSecretKey } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { withDeadline } from '../../core/deadline.js';
import type { Logger } from '../../log.js';
import type { RequestActivity } from './request-activity.js';
import type { SeenRequests } from './seen-requests.js';
import {
  checkOrigin,
  checkSignature,
  isSslCheck,
  originOf,
  parseSlackBody,
  requestId,
  type Installation,
  type RefusalReason,
} from './slack-request.js';

/** Slack's commands and interactions are a few KiB; the largest, a click on a full card, ~40. */
export const SLACK_BODY_LIMIT_BYTES = 64 * 1024;

/** The replay check must answer well inside Slack's 3 s, or the request is refused. */
const SEEN_DEADLINE_MS = 1_000;

export interface SlackGuardOptions {
  signingSecret: string;
  installation: Installation;
  seen: SeenRequests;
  logger: Logger;
  bodyLimitBytes?: number;
  nowMs?: () => number;
  /**
   * Counts each request from its arrival until it is answered; one that is not signed only
   * until refused, and never long (UNVERIFIED_MAX_MS): a stranger's slow or forged request must
   * not hold back the work that waits for the count to drop.
   */
  activity?: RequestActivity;
}

/** Bolt reuses a body already read when it sits here (its BufferedIncomingMessage). */
type BufferedRequest = IncomingMessage & { rawBody?: Buffer };

const STATUS: Record<RefusalReason, number> = {
  'method-not-allowed': 405,
  'body-too-large': 413,
  'signature-missing': 401,
  'timestamp-invalid': 401,
  'timestamp-stale': 401,
  'timestamp-future': 401,
  'signature-invalid': 401,
  replayed: 409,
  'body-malformed': 400,
  'body-not-object': 400,
  'body-duplicate-field': 400,
  'body-unknown': 400,
  'team-missing': 403,
  'team-other': 403,
  'enterprise-other': 403,
  'app-missing': 403,
  'app-other': 403,
};

/** What a person typing the command in the wrong workspace sees (Slack shows a 200's text). */
const OTHER_INSTALLATION_REPLY = JSON.stringify({
  response_type: 'ephemeral',
  text: 'proxy-migrate is not installed for this workspace or app here, so nothing was run. Use it from the workspace it was set up in.',
});

/** Requests this guard checked in full and handed on, with the bytes it checked as rawBody. */
const passed = new WeakSet<IncomingMessage>();

/** Whether `req` came through a guard's every check (Bolt's listener runs only those). */
export function passedGuard(req: IncomingMessage): boolean {
  return passed.has(req);
}

type BodyRead = Buffer | 'too-large' | 'aborted';

function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: BodyRead): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(value);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        settle('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle(Buffer.concat(chunks, size)));
    req.once('error', () => settle('aborted'));
    req.once('close', () => settle(req.complete ? Buffer.concat(chunks, size) : 'aborted'));
  });
}

function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined) return undefined;
  const length = Number(header);
  return Number.isFinite(length) ? length : undefined;
}

export function guardSlackListener(
  listener: RequestListener,
  options: SlackGuardOptions,
): RequestListener {
  const limit = options.bodyLimitBytes ?? SLACK_BODY_LIMIT_BYTES;
  const now = options.nowMs ?? Date.now;
  const logger = options.logger.child({ component: 'slack-edge' });
  // Made once: a string key is turned into a key object on every HMAC otherwise.
  const secret = createSecretKey(Buffer.from(options.signingSecret, 'utf8'));

  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    reason: RefusalReason,
    extra: Record<string, unknown> = {},
  ): void => {
    const status = STATUS[reason];
    logger.warn({ reason, status, ...extra }, 'slack request refused');
    if (res.headersSent) return;
    const headers: Record<string, string> = { 'cache-control': 'no-store' };
    if (reason === 'method-not-allowed') headers.allow = 'POST';
    if (!req.complete) {
      // The body was not read (and will not be): close the connection after the answer.
      headers.connection = 'close';
      res.once('finish', () => req.destroy());
    }
    res.writeHead(status, headers);
    res.end();
  };

  const handle = async (req: BufferedRequest, res: ServerResponse): Promise<void> => {
    // Counted from now (unsigned, only briefly): deferred work must not run between this
    // request's arrival and its ack.
    const arrival = options.activity?.arrive(res);
    if (req.method !== 'POST') {
      refuse(req, res, 'method-not-allowed', { method: req.method });
      return;
    }
    const declared = declaredLength(req);
    if (declared !== undefined && declared > limit) {
      refuse(req, res, 'body-too-large', { declared });
      return;
    }
    const raw = await readBody(req, limit);
    if (raw === 'aborted') return;
    if (raw === 'too-large') {
      refuse(req, res, 'body-too-large');
      return;
    }
    const contentType = req.headers['content-type'];
    if (isSslCheck(raw, contentType)) {
      res.writeHead(200, { 'cache-control': 'no-store' });
      res.end();
      return;
    }

    const timestamp = req.headers['x-slack-request-timestamp'];
    const signature = req.headers['x-slack-signature'];
    const unsigned = checkSignature({
      secret,
      rawBody: raw,
      timestamp,
      signature,
      nowSeconds: Math.floor(now() / 1000),
    });
    if (unsigned !== undefined) {
      refuse(req, res, unsigned);
      return;
    }
    arrival?.signed();

    // checkSignature saw both headers as single strings.
    const id = requestId(String(timestamp), String(signature));
    let first: boolean;
    try {
      first = await withDeadline(
        options.seen.firstSeen(id),
        SEEN_DEADLINE_MS,
        () => new Error(`no answer within ${SEEN_DEADLINE_MS} ms`),
      );
    } catch (error) {
      // Fail closed: a request whose freshness cannot be checked is not run.
      logger.error(
        { err: { message: (error as Error).message }, status: 503 },
        'slack request refused: the replay check is unavailable',
      );
      res.writeHead(503, { 'cache-control': 'no-store', 'retry-after': '5' });
      res.end();
      return;
    }
    if (!first) {
      if (req.headers['x-slack-retry-num'] !== undefined) {
        // Slack retrying a delivery it thinks failed: it was served; say so, run nothing again.
        logger.info({ reason: 'replayed', status: 200 }, 'slack retry of a served request');
        res.writeHead(200, { 'cache-control': 'no-store' });
        res.end();
        return;
      }
      refuse(req, res, 'replayed');
      return;
    }

    const parsed = parseSlackBody(raw, contentType);
    if (typeof parsed === 'string') {
      refuse(req, res, parsed);
      return;
    }
    const foreign = checkOrigin(parsed, options.installation);
    if (foreign !== undefined) {
      const origin = originOf(parsed);
      if (parsed.kind === 'command') {
        logger.warn({ reason: foreign, status: 200, ...origin }, 'slack request refused');
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(OTHER_INSTALLATION_REPLY);
        return;
      }
      refuse(req, res, foreign, { ...origin });
      return;
    }

    req.rawBody = raw;
    passed.add(req);
    listener(req, res);
  };

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error(
        { err: { type: (error as Error).name, message: (error as Error).message } },
        'slack edge failed',
      );
      if (!res.headersSent) {
        res.writeHead(500, { 'cache-control': 'no-store' });
        res.end();
      }
    });
  };
}
