/** What every card of a run shows about it, read from its state. */
import type { ClusterOverview } from '../core/cluster-overview.js';
import type { PreflightReport } from '../core/report.js';
import type { RunState } from '../core/run-state.js';
import type { RunMeta } from './preflight.js';

export function runMeta(state: RunState): RunMeta {
  const requester = state.requester;
  return {
    runId: state.id,
    requestedBy: requester.kind === 'slack' ? requester.userId : requester.user,
    requestedAt: state.createdAt,
  };
}

/** The pre-flight's results as its steps keep them in the run's facts. */
export interface PreflightFacts {
  report?: PreflightReport;
  overview?: ClusterOverview;
  cardTs?: string;
  repliesPosted?: number;
  filePosted?: boolean;
  /** The report went to the requester's direct messages: that card and its thread. */
  reportDm?: { channel: string; ts: string };
  dmRepliesPosted?: number;
  dmFilePosted?: boolean;
  /** The report summary went through the command's response_url (no DM possible). */
  reportVia?: 'response_url';
}

export function preflightFacts(state: RunState): PreflightFacts {
  return state.facts;
}
