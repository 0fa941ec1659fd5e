/**
 * What a step executor gets and gives back. Executors are the effectful half of a runbook step:
 * they read the cluster, probe nodes and apply actions through the context, and answer with an
 * outcome; the engine turns that into an event for transition(). An executor never changes the
 * run state itself, and it writes to the cluster only through `apply`, which journals first.
 */
import type { ClusterAction } from '../core/actions.js';
import type { Actor, Evidence, RunState } from '../core/run-state.js';
import type { StepFailure } from '../core/run-events.js';
import type { Runbook, Step } from '../core/runbook.js';
import type { ClusterConfig } from '../config.js';
import type { Logger } from '../log.js';
import type { ChatPort } from '../ports/chat.js';
import type { Clock } from '../ports/clock.js';
import type { ApplyOptions, ApplyResult, ClusterPort } from '../ports/cluster.js';
import type { NodeShell } from '../ports/node-shell.js';
import type { AcquireResult } from './lock.js';
import type { StepProgress } from './observer.js';

export interface StepContext {
  readonly runbook: Runbook;
  readonly step: Step;
  /** The run as last saved (it changes as actions are journaled). */
  state(): RunState;
  readonly cluster: ClusterPort;
  readonly clusterConfig: ClusterConfig;
  /** The run's probe shell: one probe pod per node, reused by every step of this process. */
  shell(): NodeShell;
  /**
   * Applies a cluster action: journaled (pending) before the request goes out and marked after,
   * under the cluster lock for mutating runs. Housekeeping actions (probe pods, the Lease) are
   * logged, not journaled.
   */
  apply(action: ClusterAction, options?: ApplyOptions & { undoes?: number }): Promise<ApplyResult>;
  /** The cluster lock (a Lease) this run takes before its first write. */
  readonly lock: { acquire(): Promise<AcquireResult> };
  /** Progress inside the step, for people watching (not saved). */
  progress(progress: StepProgress): void;
  /** Earlier runs on the same cluster and node, newest first (a rollback finds its cutover). */
  previousRuns(): Promise<RunState[]>;
  /** Keeps small facts on the run at once (not only when the step ends). */
  record(facts: Record<string, unknown>): Promise<void>;
  /** The Slack side of the run, when it was asked for from Slack. */
  readonly chat: { port: ChatPort; channel: string } | undefined;
  /** Who the run acts for (the requester, or the approver once approved). */
  readonly actor: Actor;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Aborted when the process stops: long waits end early and the step is resumed elsewhere. */
  readonly signal: AbortSignal;
}

export type StepOutcome =
  | {
      ok: true;
      note?: string;
      evidence?: Evidence[];
      facts?: Record<string, unknown>;
      plan?: { hash: string; actions: string[] };
    }
  | { ok: false; failure: StepFailure; evidence?: Evidence[]; facts?: Record<string, unknown> };

export type StepExecutor = (ctx: StepContext) => Promise<StepOutcome>;

/** A gate's "no": the run stops before any write, with this reason. */
export function refusal(message: string, evidence?: Evidence[]): StepOutcome {
  return {
    ok: false,
    failure: { kind: 'refusal', message, retryable: false },
    ...(evidence === undefined ? {} : { evidence }),
  };
}
