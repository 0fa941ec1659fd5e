/**
 * The status card of a cutover or rollback (SLACK-UX.md): cluster and node in the headline,
 * each step as it completes, the verifications' verdicts, and the end to end time; edited in
 * place as the run moves.
 */
import type { ActionsBlock, KnownBlock } from '@slack/types';
import type { RunState } from '../core/run-state.js';
import type { ChatMessage } from '../ports/chat.js';
import { ACTION } from '../interactions/ids.js';
import { runbooks } from '../runbooks/index.js';
import { context, escape, escapeKeepingMentions, section } from './blocks.js';
import { footer } from './preflight.js';
import { evidenceLine, headline, seconds, stepLines, verdicts } from './run-progress.js';
import { runMeta } from './run-meta.js';

const outcomeEmoji: Record<NonNullable<RunState['outcome']>, string> = {
  verified: ':white_check_mark:',
  'rolled-back': ':leftwards_arrow_with_hook:',
  'needs-attention': ':rotating_light:',
  refused: ':no_entry:',
  failed: ':x:',
};

function emoji(state: RunState): string {
  if (state.outcome !== undefined) return outcomeEmoji[state.outcome];
  return state.phase === 'awaiting-approval' ? ':raised_hand:' : ':arrows_counterclockwise:';
}

function titlesOf(state: RunState): Map<string, string> {
  const book = runbooks[state.kind];
  return new Map([
    ...book.steps.map((s) => [`forward:${s.id}`, s.title] as const),
    ...book.rollback.map((s) => [`rollback:${s.id}`, s.title] as const),
  ]);
}

/** Whether the card of this ended run offers its Rollback button: a cutover that changed the node. */
export function offersRollback(state: RunState): boolean {
  return (
    state.kind === 'cutover' &&
    !state.options.dryRun &&
    (state.outcome === 'verified' || state.outcome === 'needs-attention')
  );
}

function rollbackButton(state: RunState): ActionsBlock {
  const node = state.node ?? '?';
  return {
    type: 'actions',
    block_id: 'result',
    elements: [
      {
        type: 'button',
        action_id: ACTION.rollback,
        text: { type: 'plain_text', text: `Roll back ${node}`.slice(0, 75) },
        value: state.id,
        confirm: {
          title: { type: 'plain_text', text: 'Roll back?' },
          text: {
            type: 'plain_text',
            text: `Move ${node} back to IPVS? kube-proxy restarts on that node.`.slice(0, 300),
          },
          confirm: { type: 'plain_text', text: 'Roll back' },
          deny: { type: 'plain_text', text: 'Cancel' },
          style: 'danger',
        },
      },
    ],
  };
}

export function cutoverCard(state: RunState): ChatMessage {
  const title = `${runbooks[state.kind].title} · ${state.cluster} · ${state.node ?? 'original DaemonSet'}`;
  const head = `${emoji(state)} *${escape(title)}*\n${escapeKeepingMentions(headline(state))}`;
  const blocks: KnownBlock[] = [section(head)];
  const steps = stepLines(state, titlesOf(state));
  if (steps.length > 0) blocks.push(section(escape(steps.join('\n'))));
  const seen = verdicts(state);
  if (seen.length > 0) blocks.push(section(escape(seen.map(evidenceLine).join('\n'))));
  if (state.outcome !== undefined && state.outcome !== 'verified' && state.reason !== undefined) {
    blocks.push(section(`*Why:* ${escape(state.reason)}`));
  }
  if (offersRollback(state)) blocks.push(rollbackButton(state));
  const took = state.outcome === undefined ? '' : seconds(state.createdAt, state.updatedAt);
  blocks.push(context(footer(runMeta(state), took === '' ? [] : [`${took} end to end`])));
  return { text: `${title}: ${headline(state)}`, blocks };
}
