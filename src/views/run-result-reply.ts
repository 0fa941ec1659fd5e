/**
 * A cutover's or rollback's result as a thread reply (SLACK-UX.md "Result"): the outcome, each
 * verification's verdict, the p99 sync time before and after, why it ended this way, and the
 * Rollback button; and the evidence as a Markdown file, with every probe's command and output,
 * so nobody has to trust a tick mark.
 */
import type { KnownBlock } from '@slack/types';
import { describe } from '../core/action-describe.js';
import { actorName, type RunState } from '../core/run-state.js';
import type { ChatMessage } from '../ports/chat.js';
import { chunkLines, context, escape, escapeKeepingMentions, section } from './blocks.js';
import { cutoverCard, offersRollback } from './cutover-card.js';
import { evidenceLine, headline, seconds, verdicts } from './run-progress.js';

const emoji: Record<NonNullable<RunState['outcome']>, string> = {
  verified: ':white_check_mark:',
  'rolled-back': ':leftwards_arrow_with_hook:',
  'needs-attention': ':rotating_light:',
  refused: ':no_entry:',
  failed: ':x:',
};

export function resultReply(state: RunState): ChatMessage {
  const outcome = state.outcome ?? 'failed';
  const took = seconds(state.createdAt, state.updatedAt);
  const head = `${emoji[outcome]} *${escapeKeepingMentions(headline(state))}* · ${escape(state.cluster)}${took === '' ? '' : ` · ${took} end to end`}`;
  const blocks: KnownBlock[] = [section(head)];
  // A dry run's answer is the plan itself: every write, each confirmed by the API server.
  if (state.options.dryRun && state.plan !== undefined) {
    const lines = [
      `*What would happen* (plan \`${state.plan.hash}\`, every write accepted by a server-side dry run):`,
      ...state.plan.actions.map((a, i) => `${i + 1}. ${escape(a)}`),
    ];
    for (const chunk of chunkLines(lines, 2900)) blocks.push(section(chunk));
  }
  const seen = verdicts(state).map(evidenceLine);
  for (const chunk of chunkLines(seen.map(escape), 2900)) blocks.push(section(chunk));
  if (state.reason !== undefined && outcome !== 'verified') {
    blocks.push(section(`*Why:* ${escape(state.reason)}`));
  }
  if (state.evidence.length > 0) {
    blocks.push(context('Evidence: every probe’s command and output is in the file below.'));
  }
  // The same button as on the status card, built once there.
  if (offersRollback(state)) {
    const button = cutoverCard(state).blocks?.find((b) => b.type === 'actions');
    if (button !== undefined) blocks.push(button);
  }
  return { text: `${headline(state)} · ${state.cluster}`, blocks };
}

/** The plan's unified diffs (current → planned), kept by the plan step. */
function diffsOf(state: RunState): string[] {
  const diffs = state.facts['planDiffs'];
  if (!Array.isArray(diffs) || diffs.length === 0) return [];
  const out = ['## Planned changes (current → planned)', ''];
  for (const d of diffs as { title?: unknown; diff?: unknown }[]) {
    if (typeof d.title !== 'string' || typeof d.diff !== 'string') continue;
    out.push(`### ${d.title}`, '', '```diff', d.diff === '' ? '(no change)' : d.diff, '```', '');
  }
  return out;
}

export function evidenceReport(state: RunState): string {
  const lines = [
    `# ${state.kind} of ${state.node ?? '?'} on ${state.cluster}: ${state.outcome ?? state.phase}`,
    '',
    `run ${state.id} · requested by ${state.requester.kind === 'slack' ? state.requester.userId : state.requester.user} at ${state.createdAt}`,
    ...(state.planHash === undefined ? [] : [`plan ${state.planHash}`]),
    ...(state.reason === undefined ? [] : [`reason: ${state.reason}`]),
    '',
    '## Decisions',
    '',
    ...(state.approvals.length === 0
      ? ['(none)']
      : state.approvals.map(
          (a) =>
            `- ${a.decision} by ${actorName(a.by)} at ${a.at}${a.planHash === undefined ? '' : ` (plan ${a.planHash})`}${a.reason === undefined ? '' : `: ${a.reason}`}`,
        )),
    '',
    '## What changed (the journal, in order)',
    '',
    ...(state.journal.length === 0
      ? ['(nothing was written)']
      : state.journal.map(
          (j) =>
            `${j.seq}. ${j.status}: ${describe(j.action)}${j.undoes === undefined ? '' : ` (undoes ${j.undoes})`} · ${j.at}${j.approvedBy === undefined ? '' : ` · approved by ${actorName(j.approvedBy)}`}`,
        )),
    '',
    ...diffsOf(state),
    '## Steps',
    '',
    ...state.steps
      .filter((s) => s.status !== 'pending')
      .map(
        (s) =>
          `- ${s.track === 'rollback' ? 'rollback: ' : ''}${s.id}: ${s.status}${s.startedAt !== undefined && s.endedAt !== undefined ? ` in ${seconds(s.startedAt, s.endedAt)}` : ''}${s.note === undefined ? '' : ` (${s.note})`}`,
      ),
    '',
    '## Evidence',
    '',
  ];
  for (const e of state.evidence) {
    lines.push(
      `### ${e.ok ? '✓' : '✗'} ${e.probe}${e.node === undefined ? '' : ` @${e.node}`} (${e.step})`,
      '',
      e.verdict,
      '',
    );
    if (e.argv.length > 0)
      lines.push(
        `\`${e.argv.join(' ')}\`${e.exitCode === undefined ? '' : ` → exit ${e.exitCode}`}`,
        '',
      );
    if (e.output !== '') lines.push('```', e.output.replaceAll('```', "'''"), '```', '');
  }
  return lines.join('\n');
}
