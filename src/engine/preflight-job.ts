/**
 * The preflight job: post the status card, run the pre-flight (API lists, node probes, checks),
 * edit the card with the summary, then reply per pool in its thread. Progress is saved after every post so a retried job carries on where it
 * stopped instead of posting twice.
 */
import type { AppConfig } from '../config.js';
import type { PreflightReport } from '../core/report.js';
import { AppError, asAppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { ChatPort } from '../ports/chat.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterDirectory } from '../ports/cluster.js';
import { preflightFailedCard, preflightGatheringCard, type RunMeta } from '../views/preflight.js';
import { reportCard, reportThread } from '../views/preflight-report.js';
import { runPreflight } from './preflight-run.js';
import type { JobContext, PreflightJob } from './jobs.js';

const PROGRESS_EVERY_MS = 5_000;

/**
 * Calls `send` with the latest progress at most once per `everyMs`, one call in flight at a time;
 * `flush` waits for the one in flight so the final card is never overwritten by stale progress.
 */
function throttledProgress(
  everyMs: number,
  send: (done: number, total: number) => Promise<unknown>,
): { report(done: number, total: number): void; flush(): Promise<void> } {
  // The first update comes only after `everyMs`: a quick pre-flight never edits the card twice.
  let last = Date.now();
  let inFlight: Promise<unknown> | undefined;
  return {
    report(done, total) {
      const now = Date.now();
      if (inFlight !== undefined || now - last < everyMs) return;
      last = now;
      inFlight = send(done, total).finally(() => {
        inFlight = undefined;
      });
    },
    async flush() {
      await inFlight;
    },
  };
}

export interface PreflightDeps {
  config: Pick<AppConfig, 'clusters'>;
  clusters: ClusterDirectory;
  chat: ChatPort;
  clock: Clock;
  logger: Logger;
}

export interface PreflightResult {
  cluster: string;
  nodes: number;
  mode: string;
  summary: PreflightReport['summary'];
  cardTs: string;
}

export async function runPreflightJob(
  deps: PreflightDeps,
  job: JobContext<PreflightJob>,
): Promise<PreflightResult> {
  let data = job.data;
  const log = deps.logger.child({ runId: data.runId, cluster: data.cluster, attempt: job.attempt });
  const save = async (patch: Partial<PreflightJob>): Promise<void> => {
    data = { ...data, ...patch };
    await job.save(data);
  };
  const meta: RunMeta = {
    runId: data.runId,
    requestedBy: data.requestedBy.userId,
    requestedAt: data.requestedAt,
  };
  const clusterConfig = deps.config.clusters.find((c) => c.name === data.cluster);
  if (clusterConfig === undefined) {
    throw new AppError('UNKNOWN_CLUSTER', `Cluster ${data.cluster} is no longer configured.`, {
      remedy: 'Check the clusters file the worker runs with; it may differ from the bot’s.',
    });
  }

  let cardTs = data.cardTs;
  if (cardTs === undefined) {
    cardTs = (await deps.chat.post(data.channel, preflightGatheringCard(data.cluster, meta))).ts;
    await save({ cardTs });
  }

  // Probing a big fleet takes minutes: edit the card as it goes, at most every few seconds
  // (chat.update is rate-limited per workspace), never blocking the probes on Slack.
  const card = cardTs;
  const progress = throttledProgress(PROGRESS_EVERY_MS, (done, total) =>
    deps.chat
      .update(data.channel, card, preflightGatheringCard(data.cluster, meta, { done, total }))
      .catch((error: unknown) => log.debug({ err: error }, 'progress update failed')),
  );
  let outcome;
  try {
    outcome = await runPreflight({
      cluster: deps.clusters.get(data.cluster),
      shell: deps.clusters.nodeShell(data.cluster, data.runId),
      clock: deps.clock,
      ...(clusterConfig.poolLabel === undefined ? {} : { poolLabel: clusterConfig.poolLabel }),
      probeConcurrency: clusterConfig.probe.concurrency,
      onProgress: (phase, done, total) => {
        if (phase === 'probing') progress.report(done, total);
      },
    });
    await progress.flush();
  } catch (error) {
    await progress.flush();
    const appError = asAppError(error);
    const retrying = appError.retryable && job.attempt < job.maxAttempts;
    log.warn(
      { err: appError, code: appError.code, retrying },
      'pre-flight could not read the cluster',
    );
    // The cluster error is what matters: a failure to show it must not replace it.
    await deps.chat
      .update(data.channel, cardTs, preflightFailedCard(data.cluster, appError, meta, retrying))
      .catch((slackFailure: unknown) =>
        log.warn({ err: slackFailure }, 'could not show the failure on the card'),
      );
    throw appError;
  }
  const { report, overview } = outcome;

  await deps.chat.update(data.channel, cardTs, reportCard(report, overview, meta));
  const thread = reportThread(report, overview);
  for (let i = data.repliesPosted ?? 0; i < thread.replies.length; i += 1) {
    const reply = thread.replies[i];
    if (reply === undefined) continue;
    await deps.chat.post(data.channel, reply, { threadTs: cardTs });
    await save({ repliesPosted: i + 1 });
  }
  if (thread.file !== undefined && data.filePosted !== true) {
    await deps.chat.uploadFile(data.channel, { ...thread.file, threadTs: cardTs });
    await save({ filePosted: true });
  }
  log.info(
    {
      nodes: overview.nodes.length,
      mode: report.currentMode,
      summary: report.summary,
      durationMs: overview.durationMs,
    },
    'pre-flight reported',
  );
  return {
    cluster: data.cluster,
    nodes: overview.nodes.length,
    mode: report.currentMode,
    summary: report.summary,
    cardTs,
  };
}
