/**
 * A WebClient that reports every Web API call's method and outcome (metrics). Every helper of
 * the SDK (chat.postMessage, filesUploadV2, …) goes through apiCall, so one override sees them
 * all, retries included as one call each.
 */
import { ErrorCode, WebClient, type WebAPICallResult } from '@slack/web-api';

export type SlackCallObserver = (method: string, outcome: string) => void;

/** Slack's own error code, or the kind of failure: bounded, so it can be a label. */
export function slackOutcome(error: unknown): string {
  const e = error as { code?: string; data?: { error?: unknown }; statusCode?: unknown };
  switch (e.code) {
    case ErrorCode.PlatformError:
      return typeof e.data?.error === 'string' && /^[a-z_]{1,64}$/.test(e.data.error)
        ? e.data.error
        : 'platform_error';
    case ErrorCode.RateLimitedError:
      return 'rate_limited';
    case ErrorCode.HTTPError:
      return typeof e.statusCode === 'number' ? `http_${e.statusCode}` : 'http_error';
    case ErrorCode.RequestError:
      return 'request_error';
    default:
      return 'error';
  }
}

export class CountedWebClient extends WebClient {
  constructor(
    token: string | undefined,
    options: ConstructorParameters<typeof WebClient>[1],
    private readonly observe: SlackCallObserver,
  ) {
    super(token, options);
  }

  override async apiCall(
    method: string,
    options?: Parameters<WebClient['apiCall']>[1],
  ): Promise<WebAPICallResult> {
    try {
      const result = await super.apiCall(method, options);
      this.observe(method, 'ok');
      return result;
    } catch (error) {
      this.observe(method, slackOutcome(error));
      throw error;
    }
  }
}
