/** Slack Web API failures as AppErrors, with what to do about each. */
import { ErrorCode as SlackErrorCode, type WebAPICallError } from '@slack/web-api';
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

export function slackError(error: unknown, method: string): AppError {
  const callError = error as Partial<WebAPICallError> & {
    data?: { error?: string };
    retryAfter?: number;
  };
  if (callError.code === SlackErrorCode.RateLimitedError) {
    return new AppError('SLACK_RATE_LIMITED', `Slack rate-limited ${method}.`, {
      remedy: `Wait ${callError.retryAfter ?? 'a few'} seconds; the bot retries on its own.`,
      retryable: true,
      cause: error,
    });
  }
  if (callError.code === SlackErrorCode.PlatformError) {
    const slackCode = callError.data?.error ?? 'unknown_error';
    if (slackCode === 'not_in_channel' || slackCode === 'channel_not_found') {
      return new AppError('SLACK_NOT_IN_CHANNEL', 'The bot cannot post in this channel.', {
        remedy: 'Invite the bot to the channel (/invite @proxy-migrate) and run the command again.',
        cause: error,
        details: { method, slackCode },
      });
    }
    return new AppError('SLACK_API_ERROR', `Slack refused ${method}: ${slackCode}.`, {
      remedy: AUTH_ERRORS.has(slackCode)
        ? 'Check SLACK_BOT_TOKEN: reinstall the app to the workspace and copy the new bot token.'
        : TRANSIENT_ERRORS.has(slackCode)
          ? 'Slack had a transient problem; the bot retries on its own.'
          : 'Check the bot logs for this Slack error; the app may be missing a scope from deploy/slack-app-manifest.yaml.',
      retryable: TRANSIENT_ERRORS.has(slackCode),
      cause: error,
      details: { method, slackCode },
    });
  }
  return new AppError('SLACK_API_ERROR', `Slack could not be reached for ${method}.`, {
    remedy: 'Check the network path to Slack (or SLACK_API_URL); the bot will retry.',
    retryable: true,
    cause: error,
    details: { method },
  });
}
