/**
 * Pre-flight's reporting step: the card becomes the report, then the thread gets one reply per
 * pool and the Markdown file when the report is long. What was posted is kept on the run after
 * every post, so a retry (a Slack failure, a crash) carries on where it stopped: no reply twice,
 * and the cluster is not read again.
 */
import { reportCard, reportThread } from '../../views/preflight-report.js';
import { preflightFacts, runMeta } from '../../views/run-meta.js';
import type { StepExecutor } from '../step-context.js';

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
  await chat.port.update(chat.channel, cardTs, reportCard(report, overview, runMeta(ctx.state())));
  const thread = reportThread(report, overview);
  for (let i = facts.repliesPosted ?? 0; i < thread.replies.length; i += 1) {
    const reply = thread.replies[i];
    if (reply === undefined) continue;
    await chat.port.post(chat.channel, reply, { threadTs: cardTs });
    await ctx.record({ repliesPosted: i + 1 });
  }
  if (thread.file !== undefined && facts.filePosted !== true) {
    await chat.port.uploadFile(chat.channel, { ...thread.file, threadTs: cardTs });
    await ctx.record({ filePosted: true });
  }
  ctx.logger.info(
    {
      nodes: overview.nodes.length,
      mode: report.currentMode,
      summary: report.summary,
      durationMs: overview.durationMs,
    },
    'pre-flight reported',
  );
  return { ok: true, note: `${thread.replies.length} replies` };
};
