/**
 * RunState: everything a run is and has done, persisted (versioned) after every change so that
 * any process can pick it up after a crash. Only `transition()` (run.ts) makes a new state from
 * an old one; the engine loads, transitions, saves with a version check, then acts.
 */
import type { ClusterAction } from './actions.js';
import type { RunKind, Track } from './runbook.js';

/** Who asked or approved: a Slack user (with their team, for Slack Connect) or a terminal user. */
export type Actor =
  { kind: 'slack'; userId: string; teamId: string } | { kind: 'terminal'; user: string };

export function actorName(actor: Actor): string {
  return actor.kind === 'slack' ? `<@${actor.userId}>` : `${actor.user} (terminal)`;
}

export const phases = ['running', 'awaiting-approval', 'rolling-back', 'done'] as const;
export type Phase = (typeof phases)[number];

export const outcomes = [
  /** The run did what it set out to do and verified it (a pre-flight: the report is out). */
  'verified',
  /** Stopped before any write: a gate said no, the plan changed, the lock was held, a person rejected or let it expire. */
  'refused',
  /** A verification or deadline failed after a write; the node was rolled back and verified. */
  'rolled-back',
  /** The node is in a state a person must look at (rollback failed, or auto-rollback was off). */
  'needs-attention',
  /** An error (the cluster unreachable, a tool missing) stopped the run before it wrote anything. */
  'failed',
] as const;
export type Outcome = (typeof outcomes)[number];

export type StepStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface StepRecord {
  id: string;
  track: Track;
  status: StepStatus;
  attempts: number;
  startedAt?: string;
  endedAt?: string;
  /** One line for the card: "4 s", "kernel 6.1, nft 1.0.6, no blockers", the error. */
  note?: string;
  /** The last failure of this step (kept while it is retried), for the card and the record. */
  error?: { message: string; code?: string; remedy?: string };
}

export interface Approval {
  decision: 'approved' | 'rejected';
  by: Actor;
  at: string;
  /** The plan hash the person saw. */
  planHash?: string;
  reason?: string;
}

export interface JournalEntry {
  /** Sequence number within the run, from 1. */
  seq: number;
  step: string;
  action: ClusterAction;
  /** `pending` is written before the request goes out: a crash leaves no write unrecorded. */
  status: 'pending' | 'applied' | 'unchanged' | 'failed';
  /** Who approved the run this write belongs to. */
  approvedBy?: Actor;
  at: string;
  /** Set on the undo of an earlier entry: the seq it undoes. */
  undoes?: number;
  error?: string;
}

/** One verification or capture result, kept as evidence (what the person sees and can audit). */
export interface Evidence {
  /** The probe or verification id: `nft-table`, `ipvs-empty`, `nodeport-from-peer`, … */
  probe: string;
  step: string;
  node?: string;
  /** The command run, as an argv array; empty for evidence read through the API. */
  argv: string[];
  exitCode?: number;
  /** Trimmed output (the first lines and the last, at most a few KiB). */
  output: string;
  ok: boolean;
  /** One line: what was expected and what was seen. */
  verdict: string;
  at: string;
}

export interface RunOptions {
  /** Roll back automatically when a verification or deadline fails (default true). */
  autoRollback: boolean;
  /** Stop after planning and the server-side dry run: nothing is written. */
  dryRun: boolean;
  /** Pre-approved by the person at the terminal (`--yes`, or answering the prompt). */
  preApproved?: Actor;
  /** Slack: the channel the run talks in. */
  channel?: string;
  /** How long an approval request stays open. */
  approvalTtlMs?: number;
}

export interface RunState {
  id: string;
  kind: RunKind;
  cluster: string;
  node?: string;
  requester: Actor;
  options: RunOptions;
  phase: Phase;
  track: Track;
  /** Index of the current step in the current track's list. */
  stepIndex: number;
  steps: StepRecord[];
  planHash?: string;
  /** The plan people were shown (action previews), kept with the hash. */
  plan?: { hash: string; actions: string[] };
  approvals: Approval[];
  journal: JournalEntry[];
  evidence: Evidence[];
  /** Small named results steps hand to later steps (old pod uid, baseline p99, card ts). */
  facts: Record<string, unknown>;
  outcome?: Outcome;
  reason?: string;
  /** When an open approval request lapses. */
  expiresAt?: string;
  createdAt: string;
  updatedAt: string;
  /** Notable events in order (resumed after a crash, lock lost, …), for the record. */
  history: { at: string; event: string; note?: string }[];
  /** Bumped on every save; a writer holding an older version loses. */
  version: number;
}
