/**
 * The pre-flight status card's states besides the report itself (preflight-report.ts): while
 * the cluster is being read, and when it could not be.
 */
import { asAppError } from '../errors.js';
import type { ChatMessage, FileUpload } from '../ports/chat.js';
import { context, escape, escapeKeepingMentions, section, utcTime } from './blocks.js';

/** Who asked and when: shown on every card of the run. */
export interface RunMeta {
  runId: string;
  requestedBy: string;
  requestedAt: string;
  /** Where the full report is, when not in the card's thread ("sent to … by direct message"). */
  reportWhere?: string;
}

/** Who asked, when, and the run id: the last line of every card of a run. */
export function footer(meta: RunMeta, extra: string[] = []): string {
  return [
    `requested by <@${meta.requestedBy}>`,
    utcTime(meta.requestedAt),
    ...extra,
    `run \`${meta.runId}\``,
  ].join(' · ');
}

/** Node probing progress, shown on the card of a long pre-flight. */
export interface ProbeProgress {
  done: number;
  total: number;
}

export function preflightGatheringCard(
  cluster: string,
  meta: RunMeta,
  probing?: ProbeProgress,
): ChatMessage {
  const doing =
    probing === undefined
      ? 'reading nodes and kube-proxy configuration…'
      : `probing nodes ${probing.done}/${probing.total}…`;
  return {
    text: `Pre-flight for ${cluster}: ${doing}`,
    blocks: [section(`:mag: *Pre-flight · ${escape(cluster)}* · ${doing}`), context(footer(meta))],
  };
}

export interface ThreadReport {
  replies: ChatMessage[];
  file?: FileUpload;
}

/** The card when the cluster could not be read: what failed, the code, what to check. */
export function preflightFailedCard(
  cluster: string,
  error: unknown,
  meta: RunMeta,
  retrying: boolean,
): ChatMessage {
  const appError = asAppError(error);
  const status = retrying ? ':hourglass_flowing_sand: retrying' : ':x: failed';
  return {
    text: `Pre-flight for ${cluster} ${retrying ? 'is retrying' : 'failed'}: ${appError.message}`,
    blocks: [
      section(
        `${status} *Pre-flight · ${escape(cluster)}*\n${escape(appError.message)}\n${escapeKeepingMentions(appError.remedy)}`,
      ),
      context(footer(meta, [`error code \`${appError.code}\``])),
    ],
  };
}
