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

/** Told of every response the API server sent (not of requests that never got one). */
export type ResponseObserver = (verb: string, status: number) => void;

export function withRequestDeadline(
  timeoutMs: number,
  observe?: ResponseObserver,
): ConfigurationOptions {
  // The object-parameter API runs observable middleware (the SDK's own Observable stub). One
  // middleware per request, so the verb seen in `pre` is this request's.
  let verb = 'UNKNOWN';
  const deadline: ObservableMiddleware = {
    pre: (context) => {
      context.setSignal(AbortSignal.timeout(timeoutMs));
      verb = String(context.getHttpMethod());
      return new Observable(Promise.resolve(context));
    },
    post: (context) => {
      observe?.(verb, context.httpStatusCode);
      return new Observable(Promise.resolve(context));
    },
  };
  return { middleware: [deadline], middlewareMergeStrategy: 'append' };
}
