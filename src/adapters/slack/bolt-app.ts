/**
 * The Bolt app and the Web API client. HTTP mode mounts Bolt's HTTPReceiver listener in our own
 * server (health and metrics share the port); Socket Mode is a local-development switch used when
 * an app-level token is configured.
 */
import type { RequestListener } from 'node:http';
import { App, HTTPReceiver } from '@slack/bolt';
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { SlackConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { SLACK_BODY_LIMIT_BYTES, passedGuard } from '../http/slack-guard.js';
import { SLACK_EVENTS_PATH } from '../http/server.js';
import { slackLogger } from './bolt-logger.js';
import { slackError } from './errors.js';

/** Who the bot is, from auth.test: needed by Bolt and to recognise the home workspace. */
export interface SlackIdentity {
  botId: string;
  botUserId: string;
  teamId: string;
  team: string;
  /** The Enterprise Grid org the workspace belongs to, when it does. */
  enterpriseId?: string;
  /** The workspace's URL (`https://<name>.slack.com/`), for links to messages. */
  url?: string;
}

function clientOptions(
  slack: SlackConfig,
  logger: Logger,
  overrides: WebClientOptions,
): WebClientOptions {
  const apiUrl =
    slack.apiUrl === undefined
      ? undefined
      : slack.apiUrl.endsWith('/')
        ? slack.apiUrl
        : `${slack.apiUrl}/`;
  return {
    logger: slackLogger(logger, 'slack-web-api'),
    // The SDK's defaults are no timeout and ten retries over about thirty minutes, long enough to
    // hold a job (or start-up) hostage; the queue's own retries take over after these.
    timeout: SLACK_TIMEOUT_MS,
    retryConfig: { retries: 3, factor: 2, minTimeout: 1_000, maxTimeout: 10_000 },
    ...(apiUrl === undefined ? {} : { slackApiUrl: apiUrl }),
    ...overrides,
  };
}

const SLACK_TIMEOUT_MS = 15_000;

export function createWebClient(
  slack: SlackConfig,
  logger: Logger,
  overrides: WebClientOptions = {},
): WebClient {
  return new WebClient(slack.botToken, clientOptions(slack, logger, overrides));
}

/**
 * The client behind SlackChat: it makes each request once and hands 429s straight back, because
 * SlackChat retries with knowledge the SDK lacks (whether a timed-out post landed, how long the
 * run may wait, the channel's pace). The SDK's own retries would post a timed-out message twice
 * and turn a long 429 into "could not be reached".
 */
export function createChatClient(
  slack: SlackConfig,
  logger: Logger,
  overrides: WebClientOptions = {},
): WebClient {
  return createWebClient(slack, logger, {
    ...overrides,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
}

export async function verifySlackAuth(client: WebClient): Promise<SlackIdentity> {
  let result;
  try {
    result = await client.auth.test();
  } catch (error) {
    throw slackError(error, 'auth.test');
  }
  if (result.user_id === undefined || result.team_id === undefined) {
    throw new AppError('SLACK_API_ERROR', 'Slack’s auth.test did not name the bot user.', {
      remedy: 'Use a bot token (xoxb-…) from the app’s “OAuth & Permissions” page.',
    });
  }
  return {
    botId: result.bot_id ?? '',
    botUserId: result.user_id,
    teamId: result.team_id,
    team: result.team ?? result.team_id,
    ...(typeof result.enterprise_id === 'string' && result.enterprise_id !== ''
      ? { enterpriseId: result.enterprise_id }
      : {}),
    ...(typeof result.url === 'string' && result.url !== '' ? { url: result.url } : {}),
  };
}

export interface BoltApp {
  app: App;
  /**
   * Bolt's request listener for /slack/events, to mount behind the edge guard
   * (guardSlackListener), which checks the signature: on its own it refuses every request.
   * Absent in Socket Mode.
   */
  listener?: RequestListener;
  socketMode: boolean;
}

export function createBoltApp(
  slack: SlackConfig,
  identity: SlackIdentity,
  logger: Logger,
  overrides: WebClientOptions = {},
): BoltApp {
  const common = {
    token: slack.botToken,
    botId: identity.botId,
    botUserId: identity.botUserId,
    // auth.test already ran (verifySlackAuth); Bolt need not repeat it.
    tokenVerificationEnabled: false,
    logger: slackLogger(logger, 'bolt'),
    clientOptions: clientOptions(slack, logger, overrides),
  };
  if (slack.appToken !== undefined) {
    return {
      app: new App({ ...common, appToken: slack.appToken, socketMode: true }),
      socketMode: true,
    };
  }
  if (slack.signingSecret === undefined) {
    throw new AppError('CONFIG_INVALID', 'SLACK_SIGNING_SECRET is required in HTTP mode.', {
      remedy: 'Copy it from the Slack app’s “Basic Information” page.',
    });
  }
  const edgeLogger = logger.child({ component: 'bolt-receiver' });
  const receiver = new HTTPReceiver({
    signingSecret: slack.signingSecret,
    endpoints: SLACK_EVENTS_PATH,
    logger: common.logger,
    // Keep false on a long-running server: ack() answers Slack before the listener's work ends.
    processBeforeResponse: false,
    // The edge guard (adapters/http/slack-guard.ts) refuses larger bodies before they are read.
    bodyLimit: SLACK_BODY_LIMIT_BYTES,
    // The edge guard checked the signature (and its freshness, the replay and the installation)
    // on the very bytes Bolt reads; a second check cost three HMACs a request on the ack path.
    // The listener below runs only requests the guard passed.
    signatureVerification: false,
    // Bolt's own handlers log free-form strings with error details; these log a word and a code.
    unhandledRequestHandler: ({ response }) => {
      edgeLogger.warn('a Slack request was not acknowledged within 3 s');
      if (!response.headersSent) {
        response.writeHead(404);
        response.end();
      }
    },
    processEventErrorHandler: ({ error, response }) => {
      const code = 'code' in error ? String(error.code) : undefined;
      edgeLogger.error(
        { err: { type: error.name, message: error.message, code } },
        'a Slack request failed in Bolt',
      );
      if (response.headersSent) return Promise.resolve(false);
      response.writeHead(code === 'slack_bolt_authorization_error' ? 401 : 500);
      response.end();
      return Promise.resolve(true);
    },
  });
  const boltListener = receiver.requestListener;
  return {
    app: new App({ ...common, receiver }),
    // Fails closed: mounted without the edge guard, no request would have its signature checked.
    listener: (req, res) => {
      if (passedGuard(req)) {
        boltListener(req, res);
        return;
      }
      edgeLogger.error('a Slack request reached Bolt without the edge guard: refused');
      res.writeHead(401, { 'cache-control': 'no-store' });
      res.end();
    },
    socketMode: false,
  };
}
