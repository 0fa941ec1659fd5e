/**
 * What can happen to a run (events, from its own steps or from outside: a click, a timer, a
 * restart) and what the engine must do next (effects). transition() maps one to the other.
 */
import type { ClusterAction } from './actions.js';
import type { Actor, Evidence, JournalEntry, Outcome } from './run-state.js';

export interface StepFailure {
  /**
   * `refusal`: a gate said no (nothing was written); `verification`: a probe disagreed;
   * `deadline`: a wait ran out of time; `error`: the cluster or a tool failed.
   */
  kind: 'refusal' | 'verification' | 'deadline' | 'error';
  message: string;
  code?: string;
  /** What the person should do about it (from the error), shown with the message. */
  remedy?: string;
  retryable: boolean;
}

export type RunEvent =
  | { type: 'step-started'; stepId: string; at: string }
  | {
      type: 'step-completed';
      stepId: string;
      at: string;
      note?: string;
      evidence?: Evidence[];
      facts?: Record<string, unknown>;
      plan?: { hash: string; actions: string[] };
    }
  | {
      type: 'step-failed';
      stepId: string;
      at: string;
      failure: StepFailure;
      evidence?: Evidence[];
      facts?: Record<string, unknown>;
    }
  /** Written before an action's request goes out. */
  | { type: 'action-started'; stepId: string; at: string; action: ClusterAction; undoes?: number }
  | {
      type: 'action-finished';
      seq: number;
      at: string;
      status: Exclude<JournalEntry['status'], 'pending'>;
      error?: string;
    }
  /** `planHash`: the plan as recomputed at the click; a different one refuses the approval. */
  | { type: 'approved'; by: Actor; at: string; planHash?: string }
  | { type: 'rejected'; by: Actor; at: string; reason?: string }
  | { type: 'expired'; at: string }
  /** A process (re)started and found the run unfinished. */
  | { type: 'resumed'; at: string; reason: string }
  /** The cluster Lease was taken by someone else while the run held it. */
  | { type: 'lock-lost'; at: string; holder?: string }
  | { type: 'cancelled'; by: Actor; at: string; reason: string }
  /**
   * Bookkeeping outside the steps (the status card's ts): merged into facts, in any phase; with
   * `note`, also a line in the history (a refused click: who, what, why).
   */
  | {
      type: 'recorded';
      at: string;
      facts: Record<string, unknown>;
      note?: { event: string; note: string };
    };

export type RunEventType = RunEvent['type'];

export type Effect =
  /** Run the step (after `delayMs`, for a retry's backoff). */
  | { type: 'execute'; stepId: string; delayMs?: number }
  /** Ask a person: post the approval card, or prompt in the terminal. */
  | { type: 'request-approval'; expiresAt: string }
  /** Deliver an `expired` event at this time, unless the run moved on. */
  | { type: 'schedule-expiry'; at: string }
  /** The run ended: tell people, release the lock, clean up. */
  | { type: 'finished'; outcome: Outcome };
