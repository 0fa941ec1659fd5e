/**
 * A per-request deadline for client-node calls: an abort signal set by middleware, so no request
 * outlives it whatever the API server does. Pass the result as the call's options argument.
 */
import {
  Observable,
  type ConfigurationOptions,
  type ObservableMiddleware,
} from '@kubernetes/client-node';

export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

export function withRequestDeadline(timeoutMs: number): ConfigurationOptions {
  // The object-parameter API runs observable middleware (the SDK's own Observable stub).
  const deadline: ObservableMiddleware = {
    pre: (context) => {
      context.setSignal(AbortSignal.timeout(timeoutMs));
      return new Observable(Promise.resolve(context));
    },
    post: (context) => new Observable(Promise.resolve(context)),
  };
  return { middleware: [deadline], middlewareMergeStrategy: 'append' };
}
