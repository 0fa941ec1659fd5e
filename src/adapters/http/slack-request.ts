/**
 * What the HTTP edge decides about one request to /slack/events, as pure functions over its raw
 * bytes and headers: is it signed by Slack, recently, for this installation (team, Enterprise
 * org, app), and is its body something Bolt can dispatch without crashing. Bodies are parsed
 * exactly as Bolt parses them, so what is checked here is what Bolt's listeners get.
 */
import { createHash, createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';

/** Slack's signing window: a request is valid this long either side of its timestamp. */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

/** The workspace (and org and app) this bot is installed in, from auth.test and SLACK_APP_ID. */
export interface Installation {
  teamId: string;
  enterpriseId?: string;
  /** Only checked when configured (SLACK_APP_ID); never learnt from a request. */
  appId?: string;
}

/** Why a request was refused: stable words for logs and metrics, never request content. */
export const refusalReasons = [
  'method-not-allowed',
  'body-too-large',
  'signature-missing',
  'timestamp-invalid',
  'timestamp-stale',
  'timestamp-future',
  'signature-invalid',
  'replayed',
  'body-malformed',
  'body-not-object',
  'body-duplicate-field',
  'body-unknown',
  'team-missing',
  'team-other',
  'enterprise-other',
  'app-missing',
  'app-other',
] as const;
export type RefusalReason = (typeof refusalReasons)[number];

type Header = string | string[] | undefined;

const single = (value: Header): string | undefined =>
  typeof value === 'string' ? value : undefined;

export interface SignatureInput {
  /** The signing secret, or a key object made from it once (cheaper on every request). */
  secret: string | KeyObject;
  rawBody: Buffer;
  timestamp: Header;
  signature: Header;
  nowSeconds: number;
}

/**
 * Slack's v0 signature over `v0:<timestamp>:<body>`, compared in constant time, with the
 * timestamp within {@link SIGNATURE_WINDOW_SECONDS} of now in either direction (Bolt bounds only
 * the past, so a request signed for the future would stay valid until then).
 */
export function checkSignature(input: SignatureInput): RefusalReason | undefined {
  const timestamp = single(input.timestamp);
  const signature = single(input.signature);
  if (timestamp === undefined || signature === undefined) return 'signature-missing';
  if (!/^\d{1,12}$/.test(timestamp)) return 'timestamp-invalid';
  const skew = input.nowSeconds - Number(timestamp);
  if (skew > SIGNATURE_WINDOW_SECONDS) return 'timestamp-stale';
  if (skew < -SIGNATURE_WINDOW_SECONDS) return 'timestamp-future';
  if (!/^v0=[0-9a-f]{64}$/.test(signature)) return 'signature-invalid';
  const expected = createHmac('sha256', input.secret)
    .update(`v0:${timestamp}:`)
    .update(input.rawBody)
    .digest();
  const given = Buffer.from(signature.slice(3), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected)
    ? undefined
    : 'signature-invalid';
}

/** One id per signed request (its signature and timestamp), to accept each only once. */
export function requestId(timestamp: string, signature: string): string {
  return createHash('sha256').update(`${timestamp}:${signature}`).digest('hex');
}

/** Bolt reads a body as a form only for exactly this content type, and as JSON otherwise. */
const FORM = 'application/x-www-form-urlencoded';

/** Slack's SSL check: a form with `ssl_check=1`, which Bolt answers without a signature. */
export function isSslCheck(rawBody: Buffer, contentType: Header): boolean {
  if (single(contentType) !== FORM) return false;
  return parseQuery(rawBody.toString('utf8')).ssl_check === '1';
}

export type SlackBodyKind = 'command' | 'interaction' | 'event' | 'url-verification';

export interface SlackBody {
  kind: SlackBodyKind;
  body: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJsonObject(text: string): Json | RefusalReason {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'body-malformed';
  }
  return isObject(value) ? value : 'body-not-object';
}

/**
 * The body as Bolt will see it, or why Bolt must not see it: `payload=null`, a JSON `null`, an
 * array or garbage would crash or confuse Bolt's receiver; a form field given twice would make
 * Bolt read an array where it expects a string.
 */
export function parseSlackBody(rawBody: Buffer, contentType: Header): SlackBody | RefusalReason {
  const text = rawBody.toString('utf8');
  let body: Json;
  if (single(contentType) === FORM) {
    const form = parseQuery(text);
    if (Object.values(form).some((value) => Array.isArray(value))) return 'body-duplicate-field';
    if (typeof form.payload === 'string') {
      const payload = parseJsonObject(form.payload);
      if (typeof payload === 'string') return payload;
      body = payload;
    } else if (typeof form.command === 'string') {
      return commandBody(form);
    } else {
      return 'body-unknown';
    }
  } else {
    const parsed = parseJsonObject(text);
    if (typeof parsed === 'string') return parsed;
    body = parsed;
  }
  // The order is Bolt's (helpers.getTypeAndConversation): an event, a command, an interaction.
  if (body.type === 'url_verification') return { kind: 'url-verification', body };
  if (body.event !== undefined)
    return isObject(body.event) ? { kind: 'event', body } : 'body-unknown';
  if (body.command !== undefined) return commandBody(body);
  // Anything else Bolt cannot type would never be acknowledged: refuse it now instead.
  if (!INTERACTION_TYPES.includes(body.type)) return 'body-unknown';
  // Shapes Bolt reads without looking: an action without its actions, a view without its view.
  if (ACTION_TYPES.includes(body.type) && !Array.isArray(body.actions)) return 'body-unknown';
  if (VIEW_TYPES.includes(body.type) && !isObject(body.view)) return 'body-unknown';
  if (typeof field(body.user, 'id') !== 'string') return 'body-unknown';
  // Bolt reads `channel.id` whenever `channel` is not undefined: a `null` one throws in Bolt.
  if (body.channel !== undefined && !isObject(body.channel)) return 'body-unknown';
  return { kind: 'interaction', body };
}

/**
 * A command names who typed it and where: Slack always sends both. Without them a verb would
 * run for nobody, and a missing channel would read as a terminal run, which channels do not
 * restrict.
 */
function commandBody(body: Json): SlackBody | RefusalReason {
  const named = (key: string): boolean => typeof body[key] === 'string' && body[key] !== '';
  return named('user_id') && named('channel_id') ? { kind: 'command', body } : 'body-unknown';
}

const ACTION_TYPES: readonly unknown[] = ['block_actions', 'interactive_message'];
const VIEW_TYPES: readonly unknown[] = ['view_submission', 'view_closed'];

/** The interaction payloads Bolt dispatches (actions, options, shortcuts, views, dialogs). */
const INTERACTION_TYPES: readonly unknown[] = [
  'block_actions',
  'interactive_message',
  'block_suggestion',
  'dialog_submission',
  'dialog_suggestion',
  'shortcut',
  'message_action',
  'view_submission',
  'view_closed',
];

/** Who a request says it is for: the workspace, org and app it came through. */
export interface Origin {
  teamId?: string;
  enterpriseId?: string;
  appId?: string;
}

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const field = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);

/**
 * The team, org and app a request was sent for, read where Bolt reads them. For interactions
 * that is the request's `team` (a modal opened from a Slack Connect channel names the installing
 * team in `view.app_installed_team_id`), never `user.team_id`: in Slack Connect the clicking
 * user may belong to another team, which the approval check looks at, not the edge.
 */
export function originOf({ kind, body }: SlackBody): Origin {
  let teamId: string | undefined;
  let enterpriseId: string | undefined;
  switch (kind) {
    case 'command':
      teamId = str(body.team_id);
      enterpriseId = str(body.enterprise_id);
      break;
    case 'event': {
      const first: unknown = Array.isArray(body.authorizations)
        ? body.authorizations[0]
        : undefined;
      teamId = str(field(first, 'team_id')) ?? str(body.team_id);
      enterpriseId = str(field(first, 'enterprise_id')) ?? str(body.enterprise_id);
      break;
    }
    case 'interaction':
      teamId =
        (VIEW_TYPES.includes(body.type)
          ? str(field(body.view, 'app_installed_team_id'))
          : undefined) ?? str(field(body.team, 'id'));
      enterpriseId =
        str(field(body.enterprise, 'id')) ??
        str(field(body.team, 'enterprise_id')) ??
        str(body.enterprise_id);
      break;
    case 'url-verification':
      break;
  }
  const appId = str(body.api_app_id) ?? str(field(body.view, 'app_id'));
  return {
    ...(teamId === undefined ? {} : { teamId }),
    ...(enterpriseId === undefined ? {} : { enterpriseId }),
    ...(appId === undefined ? {} : { appId }),
  };
}

/**
 * Whether a request was sent for this installation. Slack signs every app's requests with that
 * app's secret, but a distributed app, or a leaked secret, can still deliver a request from
 * another workspace, org or app: it is refused rather than run against this workspace's clusters.
 */
export function checkOrigin(
  parsed: SlackBody,
  installation: Installation,
): RefusalReason | undefined {
  // Slack's one-off URL check carries no team; Bolt answers it with the challenge only.
  if (parsed.kind === 'url-verification') return undefined;
  const origin = originOf(parsed);
  if (origin.teamId === undefined) return 'team-missing';
  if (origin.teamId !== installation.teamId) return 'team-other';
  if (origin.enterpriseId !== undefined && origin.enterpriseId !== installation.enterpriseId) {
    return 'enterprise-other';
  }
  if (installation.appId !== undefined) {
    if (origin.appId === undefined) return 'app-missing';
    if (origin.appId !== installation.appId) return 'app-other';
  }
  // A view names its app twice; both must agree when the app id is known.
  const viewApp = str(field(parsed.body.view, 'app_id'));
  if (installation.appId !== undefined && viewApp !== undefined && viewApp !== installation.appId) {
    return 'app-other';
  }
  return undefined;
}
