// A coalescing work queue like client-go's: a key added many times before it is processed is
// processed once. Processing always runs from a timer, never inside a store listener, so watchers
// see events in resourceVersion order.

import type { Cancel, Scheduler } from '../clock.js';

export interface WorkQueue {
  add(key: string): void;
  /** Adds the key once `simMs` have passed; an earlier pending request wins. */
  addAfter(key: string, simMs: number): void;
  stop(): void;
}

export type ErrorSink = (error: unknown, context: string) => void;

/** A failed key is retried after this long (simulated), as a rate-limited requeue would. */
const retryMs = 1000;

export function createWorkQueue(
  scheduler: Scheduler,
  now: () => number,
  handle: (key: string) => void,
  onError: ErrorSink,
  name: string,
): WorkQueue {
  const dirty = new Set<string>();
  const delayed = new Map<string, { due: number; cancel: Cancel }>();
  let scheduled = false;
  let stopped = false;

  const drain = (): void => {
    scheduled = false;
    const keys = [...dirty];
    dirty.clear();
    for (const key of keys) {
      if (stopped) return;
      try {
        handle(key);
      } catch (error) {
        onError(error, `${name} ${key}`);
        queue.addAfter(key, retryMs);
      }
    }
  };

  const queue: WorkQueue = {
    add(key) {
      if (stopped) return;
      dirty.add(key);
      if (scheduled) return;
      scheduled = true;
      scheduler.after(0, drain);
    },
    addAfter(key, simMs) {
      if (stopped) return;
      const due = now() + simMs;
      const existing = delayed.get(key);
      if (existing && !(due < existing.due)) return;
      existing?.cancel();
      const cancel = scheduler.after(simMs, () => {
        delayed.delete(key);
        queue.add(key);
      });
      delayed.set(key, { due, cancel });
    },
    stop() {
      stopped = true;
      for (const { cancel } of delayed.values()) cancel();
      delayed.clear();
      dirty.clear();
    },
  };
  return queue;
}
