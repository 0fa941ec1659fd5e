/** Slack Web API failures as AppErrors, with what to do about each. */
import { ErrorCode as SlackErrorCode, type WebAPICallError } from '@slack/web-api';
import type { SlackFailure } from '../../core/slack-call-policy.js';
import { AppError } from '../../errors.js';

const AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
]);
/** Slack's own transient failures: the same call may well succeed a little later. */
const TRANSIENT_ERRORS = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
]);
/**
 * Of those, the ones Slack documents as "some aspect of the operation may have succeeded": a
 * post that failed so may be in the channel already.
 */
const MAYBE_DONE_ERRORS = new Set(['internal_error', 'fatal_error', 'request_timeout']);
/** The channel is gone or closed to the bot: retrying cannot help, a person must act. */
export const CHANNEL_UNAVAILABLE_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
]);

type CallError = Partial<WebAPICallError> & {
  data?: { error?: string };
  retryAfter?: number;
  statusCode?: number;
  original?: Error;
};

/** Slack's error code (`channel_not_found`…) for a platform error, else undefined. */
export function slackCodeOf(error: unknown): string | undefined {
  const callError = error as CallError;
  return callError.code === SlackErrorCode.PlatformError ? callError.data?.error : undefined;
}

function timedOut(error: CallError): boolean {
  const name = error.original?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** How a call failed, for the retry policy (core/slack-call-policy.ts). */
export function slackFailure(error: unknown): SlackFailure {
  const callError = error as CallError;
  switch (callError.code) {
    case SlackErrorCode.RateLimitedError:
      return { kind: 'rate-limited', retryAfterMs: (callError.retryAfter ?? 1) * 1000 };
    case SlackErrorCode.RequestError:
      // Sent, perhaps received and acted on, but never answered (or the connection dropped).
      return { kind: 'uncertain' };
    case SlackErrorCode.HTTPError:
      return (callError.statusCode ?? 0) >= 500 ? { kind: 'uncertain' } : { kind: 'final' };
    case SlackErrorCode.PlatformError: {
      const slackCode = callError.data?.error ?? '';
      if (slackCode === 'ratelimited') return { kind: 'rate-limited' };
      if (MAYBE_DONE_ERRORS.has(slackCode)) return { kind: 'uncertain' };
      return TRANSIENT_ERRORS.has(slackCode) ? { kind: 'transient' } : { kind: 'final' };
    }
    default:
      return error instanceof AppError && error.retryable
        ? { kind: 'transient' }
        : { kind: 'final' };
  }
}

/** Whether this error means the bot cannot post in the channel (see CHANNEL_UNAVAILABLE_ERRORS). */
export function isChannelUnavailable(error: unknown): boolean {
  return error instanceof AppError && error.code === 'SLACK_NOT_IN_CHANNEL';
}

export interface SlackErrorContext {
  channel?: string;
  /** The call was retried until its deadline: say how long Slack kept refusing. */
  waitedMs?: number;
}

export function slackError(
  error: unknown,
  method: string,
  context: SlackErrorContext = {},
): AppError {
  if (error instanceof AppError) return error;
  const callError = error as CallError;
  const where = context.channel === undefined ? {} : { channel: context.channel };
  const waited =
    context.waitedMs === undefined ? '' : ` for ${Math.round(context.waitedMs / 1000)} s`;
  if (callError.code === SlackErrorCode.RateLimitedError || slackCodeOf(error) === 'ratelimited') {
    return new AppError('SLACK_RATE_LIMITED', `Slack rate-limited ${method}${waited}.`, {
      remedy: `Slack asked to wait ${callError.retryAfter ?? 'a few'} seconds at a time; the bot keeps retrying while the run allows.`,
      retryable: true,
      cause: error,
      details: { method, ...where },
    });
  }
  if (callError.code === SlackErrorCode.PlatformError) {
    const slackCode = callError.data?.error ?? 'unknown_error';
    if (CHANNEL_UNAVAILABLE_ERRORS.has(slackCode)) {
      // A plain id, not a <#C…> mention: cards escape error messages.
      const channel = context.channel === undefined ? 'this channel' : `channel ${context.channel}`;
      return new AppError(
        'SLACK_NOT_IN_CHANNEL',
        `The bot cannot post in ${channel} (${slackCode}).`,
        {
          remedy:
            'Invite the bot to the channel (/invite @proxy-migrate) and run the command again.',
          cause: error,
          details: { method, slackCode, ...where },
        },
      );
    }
    return new AppError('SLACK_API_ERROR', `Slack refused ${method}: ${slackCode}.`, {
      remedy: AUTH_ERRORS.has(slackCode)
        ? 'Check SLACK_BOT_TOKEN: reinstall the app to the workspace and copy the new bot token.'
        : TRANSIENT_ERRORS.has(slackCode)
          ? 'Slack had a transient problem; the bot retries on its own.'
          : 'Check the bot logs for this Slack error; the app may be missing a scope from deploy/slack-app-manifest.yaml.',
      retryable: TRANSIENT_ERRORS.has(slackCode),
      cause: error,
      details: { method, slackCode, ...where },
    });
  }
  if (callError.code === SlackErrorCode.RequestError && timedOut(callError)) {
    return new AppError('SLACK_API_ERROR', `Slack did not answer ${method} in time${waited}.`, {
      remedy: 'Slack is slow or the network path to it is; the bot retries without posting twice.',
      retryable: true,
      cause: error,
      details: { method, ...where },
    });
  }
  return new AppError('SLACK_API_ERROR', `Slack could not be reached for ${method}${waited}.`, {
    remedy: 'Check the network path to Slack (or SLACK_API_URL); the bot will retry.',
    retryable: true,
    cause: error,
    details: { method, ...where },
  });
}
