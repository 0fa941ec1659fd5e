/**
 * The run's status card: posted once, as the run's first step, so that only the process that
 * won that step posts it; its ts is kept on the run and every later change edits it in place.
 * Runs started from a terminal have no card.
 */
import { wasResumed } from '../../core/resumed.js';
import { runCard } from '../../views/run-card.js';
import type { StepExecutor } from '../step-context.js';

export const postStatusCard: StepExecutor = async (ctx) => {
  if (ctx.chat === undefined) return { ok: true, note: 'no Slack channel' };
  if (typeof ctx.state().facts['cardTs'] === 'string') return { ok: true, note: 'already posted' };
  // Keyed: if Slack's answer is lost, a retry finds the card instead of posting a second one.
  const { ts } = await ctx.chat.port.post(ctx.chat.channel, runCard(ctx.state()), {
    key: `${ctx.state().id}:card`,
    mayExist: wasResumed(ctx.state()),
  });
  await ctx.record({ cardTs: ts });
  return { ok: true };
};
