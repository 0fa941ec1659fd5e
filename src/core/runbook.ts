/**
 * Runbooks as data: each run kind is a list of steps (gates, captures, actions, waits,
 * verifications) the engine walks in order, plus what to do when a step fails. The steps say what
 * happens, not how: the engine has one executor per step kind, and `transition()` (run.ts) decides
 * which step comes next. A new runbook is a new list, not new plumbing.
 */

export const runKinds = ['preflight', 'cutover', 'rollback', 'repair'] as const;
export type RunKind = (typeof runKinds)[number];

export const stepKinds = [
  /** Decides whether the run may go on; a "no" refuses the run (before any write). */
  'gate',
  /** Reads evidence and keeps it (the rollback reference, a report). */
  'capture',
  /** Computes the plan and its hash, confirmed by a server-side dry run. */
  'plan',
  /** Waits for a person: Slack approval or a terminal confirmation. */
  'approval',
  /** Takes the cluster's Lease; held, renewed, until the run ends. */
  'lock',
  /** Applies cluster actions, each journaled before it is sent. */
  'apply',
  /** Waits, with a deadline, until the cluster shows a condition. */
  'wait',
  /** Runs verifications and keeps their evidence; any failure fails the step. */
  'verify',
  /** Replays the inverse of the journal's node actions, newest first, with their waits. */
  'revert',
  /** Tells people: posts or updates messages (its own step, so a Slack failure re-posts only). */
  'report',
] as const;
export type StepKind = (typeof stepKinds)[number];

export interface Step {
  /** Stable id: the card, the JSON output and the journal name it. */
  id: string;
  kind: StepKind;
  /** Short, for the status card: "node pre-flight", "old pod gone". */
  title: string;
  /**
   * Which executor of the kind runs it (`node-preflight`, `canary-objects`, `old-pod-gone`, …);
   * the engine's registry maps it to code.
   */
  uses: string;
  /** Attempts for retryable errors (429, 5xx, timeouts) before the step counts as failed. */
  attempts?: number;
}

export interface Runbook {
  kind: RunKind;
  title: string;
  /** Writes to the cluster: needs approval, the lock and a journal. */
  mutates: boolean;
  /** The steps in order. */
  steps: readonly Step[];
  /**
   * Steps run when a step fails after the run has written something and automatic rollback is
   * on: undo the node, verify the way back. Empty: a failure after a write needs a person.
   */
  rollback: readonly Step[];
  /** First retry delay for a retryable step error; later ones double. */
  backoffMs: number;
}

/** The step list a run is walking: the runbook's own, or its rollback. */
export type Track = 'forward' | 'rollback';

export function stepsOf(runbook: Runbook, track: Track): readonly Step[] {
  return track === 'forward' ? runbook.steps : runbook.rollback;
}
