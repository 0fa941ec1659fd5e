/**
 * RunObserver: who hears about a run as it moves. The Slack observer keeps the status card and
 * the approval card current; the terminal observer prints progress and asks for confirmation.
 * Observers render from RunState alone (through views), so what people see always matches the
 * saved state. They must not throw: a failure to tell people is logged, never fails the run.
 */
import type { RunState } from '../core/run-state.js';

/** Progress inside a long step (probing 812/5000 nodes): shown, never saved. */
export interface StepProgress {
  phase: string;
  done: number;
  total: number;
}

export interface RunObserver {
  /** Progress of the running step; may come often: show the latest, drop the rest. */
  progress?(state: RunState, progress: StepProgress): void;
  /** After every save. Coalesce: a burst of changes may be shown as the last one. */
  changed(state: RunState): Promise<void>;
  /** The run waits for a person until `state.expiresAt`. */
  approvalRequested(state: RunState): Promise<void>;
  /** The run ended (`state.outcome`). */
  finished(state: RunState): Promise<void>;
}
