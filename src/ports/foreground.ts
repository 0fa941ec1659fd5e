/**
 * Foreground: answering people comes first. Slack gives a request 3 seconds and counts from when
 * it sent it, so work that can wait (starting a run after its ack, a worker taking its next job)
 * waits until no Slack request is waiting for its answer, for a bounded time.
 */
export interface Foreground {
  /** Resolves once no request waits for its answer, or after `maxWaitMs` at the latest. */
  quiet(maxWaitMs?: number): Promise<void>;
}

/** Nothing to wait for: the terminal and processes without a Slack endpoint. */
export const noForeground: Foreground = { quiet: () => Promise.resolve() };
