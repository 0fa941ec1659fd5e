/**
 * One error type for the whole product: a stable code people can search for, a remedy that says
 * what to do next, and whether retrying can help. Everything that reaches a person goes through
 * {@link toUserMessage}, so no stack trace or internal detail leaks into Slack or a terminal.
 */

export const errorCodes = [
  'CONFIG_INVALID',
  'USAGE',
  'UNKNOWN_VERB',
  'UNKNOWN_CLUSTER',
  'CHANNEL_NOT_ALLOWED',
  'KUBECONFIG_INVALID',
  'K8S_UNREACHABLE',
  'K8S_TIMEOUT',
  'K8S_UNAUTHORIZED',
  'K8S_FORBIDDEN',
  'K8S_NOT_FOUND',
  'K8S_CONFLICT',
  'K8S_THROTTLED',
  'K8S_REJECTED',
  'K8S_API_ERROR',
  'SLACK_API_ERROR',
  'SLACK_NOT_IN_CHANNEL',
  'SLACK_RATE_LIMITED',
  'NODE_PROBE_FAILED',
  'NODE_PROBE_TIMEOUT',
  'PROBE_NAMESPACE_MISSING',
  'QUEUE_UNAVAILABLE',
  'LOCK_HELD',
  'LOCK_LOST',
  'RUN_NOT_FOUND',
  'RUN_STORE_UNAVAILABLE',
  'JOB_INVALID',
  'INTERNAL',
] as const;

/** A stable, documented error code. Codes are public: people grep logs and docs for them. */
export type ErrorCode = (typeof errorCodes)[number];

export interface AppErrorOptions {
  /**
   * What the person should do about it, as one imperative sentence. Authored by the product from
   * constants and configuration only (it may hold Slack links such as `<#C123>`), never user input.
   */
  remedy: string;
  /** Whether the same operation may succeed if retried unchanged (network blips, 5xx, 429). */
  retryable?: boolean;
  cause?: unknown;
  /** Structured context for logs; never shown to users and never containing secrets. */
  details?: Record<string, unknown>;
}

/** The product's error: message for people, code for machines, remedy for what to do next. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly remedy: string;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.remedy = options.remedy;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Wraps anything thrown into an AppError, keeping AppErrors as they are. */
export function asAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  return new AppError('INTERNAL', 'Something went wrong inside proxy-migrate.', {
    remedy: 'Try again; if it keeps happening, check the bot logs for this error code.',
    cause: error,
  });
}

/** One sentence plus the remedy and the code: what people see for any error, anywhere. */
export function toUserMessage(error: unknown): string {
  const appError = asAppError(error);
  return `${appError.message} ${appError.remedy} (${appError.code})`;
}
