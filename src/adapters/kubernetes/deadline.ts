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

export function withRequestDeadline(timeoutMs: number, gate?: ClusterGate): ConfigurationOptions {
  // The object-parameter API runs observable middleware (the SDK's own Observable stub).
  const deadline: ObservableMiddleware = {
    pre: (context) => {
      const ready = gate === undefined ? Promise.resolve() : gate.take();
      return new Observable(
        ready.then(() => {
          context.setSignal(AbortSignal.timeout(timeoutMs));
          return context;
        }),
      );
    },
    post: (context) => new Observable(Promise.resolve(context)),
  };
  return { middleware: [deadline], middlewareMergeStrategy: 'append' };
}
