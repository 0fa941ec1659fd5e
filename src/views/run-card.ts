/**
 * The status card of a run, rendered from its state alone (so a card always shows what was
 * saved): the pre-flight's gathering, retrying, failed and report states; the cutover and
 * rollback card with each step as it completes.
 */
import { AppError } from '../errors.js';
import type { RunState } from '../core/run-state.js';
import type { ChatMessage } from '../ports/chat.js';
import { preflightFailedCard, preflightGatheringCard } from './preflight.js';
import { reportCard } from './preflight-report.js';
import { cutoverCard } from './cutover-card.js';
import { preflightFacts, runMeta } from './run-meta.js';

function stepError(state: RunState, id: string): AppError | undefined {
  const record = state.steps.find((s) => s.track === 'forward' && s.id === id);
  const error = record?.error;
  if (error === undefined) return undefined;
  return new AppError(
    (error.code as ConstructorParameters<typeof AppError>[0] | undefined) ?? 'INTERNAL',
    error.message,
    { remedy: error.remedy ?? 'Check the bot logs for this run.' },
  );
}

/** Progress inside the running step (not saved): probing 812/5000 nodes. */
export interface CardProgress {
  phase: string;
  done: number;
  total: number;
}

function preflightCard(state: RunState, progress: CardProgress | undefined): ChatMessage {
  const meta = runMeta(state);
  const facts = preflightFacts(state);
  if (facts.report !== undefined && facts.overview !== undefined) {
    return reportCard(facts.report, facts.overview, meta);
  }
  const gather = stepError(state, 'gather');
  if (state.phase === 'done' && state.outcome !== 'verified') {
    const failed = state.steps.find((s) => s.status === 'failed');
    const error =
      (failed === undefined ? undefined : stepError(state, failed.id)) ??
      new AppError('INTERNAL', state.reason ?? 'The pre-flight stopped.', {
        remedy: 'Check the bot logs for this run.',
      });
    return preflightFailedCard(state.cluster, error, meta, false);
  }
  if (gather !== undefined) return preflightFailedCard(state.cluster, gather, meta, true);
  const probing =
    progress?.phase === 'probing' ? { done: progress.done, total: progress.total } : undefined;
  return preflightGatheringCard(state.cluster, meta, probing);
}

export function runCard(state: RunState, progress?: CardProgress): ChatMessage {
  switch (state.kind) {
    case 'preflight':
      return preflightCard(state, progress);
    case 'cutover':
    case 'rollback':
    case 'repair':
      return cutoverCard(state);
  }
}
