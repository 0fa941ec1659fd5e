/**
 * Pre-flight's reporting step: the card becomes the report, then the thread gets one reply per
 * pool and the Markdown file when the report is long. What was posted is kept on the run after
 * every post, so a retry (a Slack failure, a crash) carries on where it stopped: no reply twice,
 * and the cluster is not read again. When the channel turns out to be closed to the bot (on the
 * card edit or on a reply), the report goes to the requester's direct messages instead, and the
 * card, if it can still be edited, says so rather than point at an empty thread.
 */
import { wasResumed } from '../../core/resumed.js';
import type { ChatMessage } from '../../ports/chat.js';
import { asAppError } from '../../errors.js';
import { reportCard, reportThread } from '../../views/preflight-report.js';
import { preflightFacts, runMeta, type PreflightFacts } from '../../views/run-meta.js';
import { tellRequester } from '../requester-notice.js';
import type { StepContext, StepExecutor, StepOutcome } from '../step-context.js';

const channelClosed = (error: unknown): boolean =>
  asAppError(error).code === 'SLACK_NOT_IN_CHANNEL';

type Place = { kind: 'channel' | 'dm'; channel: string; ts: string };

/** Moves the report to the requester: a DM card (or the response_url), recorded on the run. */
async function moveToRequester(
  ctx: StepContext,
  card: ChatMessage,
  cardTs: string,
  cardEditable: boolean,
): Promise<Place | StepOutcome> {
  const state = ctx.state();
  const chat = ctx.chat;
  if (chat === undefined) return { ok: true, note: 'no Slack channel' };
  const route = await tellRequester(chat.port, state, card, `${state.id}:dm-report`, ctx.logger);
  if (route === undefined) {
    return {
      ok: false,
      failure: {
        kind: 'error',
        code: 'SLACK_NOT_IN_CHANNEL',
        message: `The bot cannot post in <#${chat.channel}>, nor reach the requester directly.`,
        remedy:
          'Invite the bot to the channel (/invite @proxy-migrate) and run the pre-flight again.',
        retryable: false,
      },
    };
  }
  const requester = state.requester.kind === 'slack' ? `<@${state.requester.userId}>` : 'you';
  const where =
    route.via === 'dm'
      ? `Full report ▸ sent to ${requester} by direct message: the bot cannot post in this channel’s thread`
      : `Full report ▸ not posted: the bot cannot post in this channel (${requester} was told)`;
  // Recorded first: from here the observer keeps the DM card current, not the channel's.
  if (route.via === 'response_url') await ctx.record({ reportVia: 'response_url' });
  else await ctx.record({ reportDm: { channel: route.channel, ts: route.ts }, dmRepliesPosted: 0 });
  // The card may still be editable (only replies refused): it must not point at an empty thread.
  const { report, overview } = preflightFacts(state);
  if (cardEditable && report !== undefined && overview !== undefined) {
    await chat.port
      .update(
        chat.channel,
        cardTs,
        reportCard(report, overview, { ...runMeta(state), reportWhere: where }),
      )
      .catch((error: unknown) =>
        ctx.logger.debug({ err: error }, 'the channel card cannot be edited either'),
      );
  }
  if (route.via === 'response_url') {
    return { ok: true, note: 'report sent through the response_url (channel closed to the bot)' };
  }
  return { kind: 'dm', channel: route.channel, ts: route.ts };
}

/** Replies and the file into `place`'s thread, resuming from what the run says was posted. */
async function postThread(ctx: StepContext, place: Place, facts: PreflightFacts): Promise<number> {
  const chat = ctx.chat;
  const { report, overview } = facts;
  if (chat === undefined || report === undefined || overview === undefined) return 0;
  const dm = place.kind === 'dm';
  const thread = reportThread(report, overview);
  const done = (dm ? facts.dmRepliesPosted : facts.repliesPosted) ?? 0;
  for (let i = done; i < thread.replies.length; i += 1) {
    const reply = thread.replies[i];
    if (reply === undefined) continue;
    await chat.port.post(place.channel, reply, {
      threadTs: place.ts,
      key: `${ctx.state().id}:${dm ? 'dm-' : ''}reply:${i}`,
      mayExist: wasResumed(ctx.state()),
    });
    await ctx.record(dm ? { dmRepliesPosted: i + 1 } : { repliesPosted: i + 1 });
  }
  if (thread.file !== undefined && (dm ? facts.dmFilePosted : facts.filePosted) !== true) {
    await chat.port.uploadFile(place.channel, { ...thread.file, threadTs: place.ts });
    await ctx.record(dm ? { dmFilePosted: true } : { filePosted: true });
  }
  return thread.replies.length;
}

export const postPreflightThread: StepExecutor = async (ctx) => {
  const chat = ctx.chat;
  if (chat === undefined) return { ok: true, note: 'no Slack channel' };
  const facts = preflightFacts(ctx.state());
  const { report, overview, cardTs } = facts;
  if (report === undefined || overview === undefined) {
    return {
      ok: false,
      failure: { kind: 'error', message: 'no report to post', retryable: false },
    };
  }
  if (cardTs === undefined) {
    return {
      ok: false,
      failure: { kind: 'error', message: 'the status card was not posted', retryable: true },
    };
  }
  if (facts.reportVia === 'response_url') return { ok: true, note: 'report sent already' };
  const card = reportCard(report, overview, runMeta(ctx.state()));
  let place: Place =
    facts.reportDm === undefined
      ? { kind: 'channel', channel: chat.channel, ts: cardTs }
      : { kind: 'dm', ...facts.reportDm };
  let replies: number;
  let cardEdited = false;
  try {
    if (place.kind === 'channel') await chat.port.update(chat.channel, cardTs, card);
    cardEdited = true;
    replies = await postThread(ctx, place, facts);
  } catch (error) {
    if (place.kind !== 'channel' || !channelClosed(error)) throw error;
    const moved = await moveToRequester(ctx, card, cardTs, cardEdited);
    if ('ok' in moved) return moved;
    place = moved;
    replies = await postThread(ctx, place, preflightFacts(ctx.state()));
  }
  ctx.logger.info(
    {
      nodes: overview.nodes.length,
      mode: report.currentMode,
      summary: report.summary,
      durationMs: overview.durationMs,
      where: place.kind,
    },
    'pre-flight reported',
  );
  return {
    ok: true,
    note: `${replies} replies${place.kind === 'dm' ? ' (by direct message)' : ''}`,
  };
};
