/**
 * The answer to a request identical to one whose run has not ended: which run, who asked, and a
 * link to its thread (where its report, approval card or result is), so nobody starts the same
 * work twice or wonders whether their request was lost.
 */
import type { RunState } from '../core/run-state.js';
import type { RunKind } from '../core/runbook.js';
import type { ChatMessage } from '../ports/chat.js';
import { context, escape, section } from './blocks.js';

export interface AlreadyRunning {
  kind: RunKind;
  cluster: string;
  node?: string;
  runId: string;
  /** The run as stored, when it could be read. */
  state?: RunState;
  /** Its status card's permalink, once posted. */
  link?: string;
}

const noun: Record<RunKind, string> = {
  preflight: 'pre-flight',
  cutover: 'cutover',
  rollback: 'rollback',
  repair: 'repair',
};

/** Slack's permalink of a message: the workspace URL, the channel, the ts without its dot. */
export function messageLink(teamUrl: string, channel: string, ts: string): string {
  const base = teamUrl.endsWith('/') ? teamUrl : `${teamUrl}/`;
  return `${base}archives/${channel}/p${ts.replace('.', '')}`;
}

export function alreadyRunningReply(a: AlreadyRunning): ChatMessage {
  const subject =
    a.node === undefined
      ? `of *${escape(a.cluster)}*`
      : `of *${escape(a.node)}* on *${escape(a.cluster)}*`;
  const plainSubject = a.node === undefined ? `of ${a.cluster}` : `of ${a.node} on ${a.cluster}`;
  const who =
    a.state?.requester.kind === 'slack' ? `, asked by <@${a.state.requester.userId}>` : '';
  const ended = a.state?.phase === 'done';
  const state = ended ? 'has just ended' : 'is already running';
  const where =
    a.link === undefined
      ? 'its status card is being posted in this channel'
      : `see <${a.link}|the thread>`;
  return {
    text: `A ${noun[a.kind]} ${plainSubject} ${state} (run ${a.runId}): ${
      a.link === undefined
        ? 'its status card is being posted in this channel'
        : `see the thread ${a.link}`
    }.`,
    blocks: [
      section(
        `:repeat: A ${noun[a.kind]} ${subject} ${state}${who}: ${where}. Nothing new was started.`,
      ),
      context(`run \`${a.runId}\``),
    ],
  };
}
