/**
 * A per-request deadline for client-node calls: an abort signal set by middleware, so no request
 * outlives it whatever the API server does. With a gate, the request first waits for a token of
 * the cluster's rate limit; the deadline starts once it goes out. Pass the result as the call's
 * options argument.
 */
import {
  Observable,
  type ConfigurationOptions,
  type ObservableMiddleware,
} from '@kubernetes/client-node';
import type { ClusterGate } from './rate-limit.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

/** Told of every response the API server sent (not of requests that never got one). */
export type ResponseObserver = (verb: string, status: number) => void;

export function withRequestDeadline(
  timeoutMs: number,
  gate?: ClusterGate,
  observe?: ResponseObserver,
): ConfigurationOptions {
  // The object-parameter API runs observable middleware (the SDK's own Observable stub). One
  // middleware per request, so the verb seen in `pre` is this request's. The deadline starts
  // once the cluster's rate limit lets the request go.
  let verb = 'UNKNOWN';
  const deadline: ObservableMiddleware = {
    pre: (context) => {
      verb = String(context.getHttpMethod());
      const ready = gate === undefined ? Promise.resolve() : gate.take();
      return new Observable(
        ready.then(() => {
          context.setSignal(AbortSignal.timeout(timeoutMs));
          return context;
        }),
      );
    },
    post: (context) => {
      observe?.(verb, context.httpStatusCode);
      return new Observable(Promise.resolve(context));
    },
  };
  return { middleware: [deadline], middlewareMergeStrategy: 'append' };
}
