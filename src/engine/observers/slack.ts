/**
 * Keeps a Slack run's status card current: every change is rendered from the saved state and
 * edits the card in place, coalesced so a burst of steps is one chat.update (at most one a
 * second per run; Slack allows about 50 updates a minute per workspace). The end of a run is
 * always shown: the final edit is retried until it lands or the attempts run out. When the
 * channel is closed to the bot (no card could be posted, or the last edit or the result is
 * refused), the requester is told how the run ended directly (requester-notice.ts).
 */
import { wasResumed } from '../../core/resumed.js';
import type { ClusterConfig } from '../../config.js';
import type { RunState } from '../../core/run-state.js';
import type { Logger } from '../../log.js';
import { asAppError } from '../../errors.js';
import type { ChatPort } from '../../ports/chat.js';
import { approvalCard } from '../../views/approval-card.js';
import { evidenceReport, resultReply } from '../../views/run-result-reply.js';
import { runCard } from '../../views/run-card.js';
import type { RunObserver, StepProgress } from '../observer.js';
import { elsewhereNote, tellRequester } from '../requester-notice.js';
import { whileRedisDown } from '../while-redis-down.js';

const MIN_GAP_MS = 1_000;
/** Progress edits are rarer than step edits; the first comes only after this long. */
const PROGRESS_GAP_MS = 5_000;
const FINAL_ATTEMPTS = 5;

interface CardState {
  last: number;
  progress?: StepProgress | undefined;
  progressShown: number;
  timer?: NodeJS.Timeout | undefined;
  latest?: RunState;
  inFlight?: Promise<void> | undefined;
  /** A change arrived while an edit was in flight: edit again (the latest state) after it. */
  again?: boolean;
  /** The card's channel refused an edit as closed: no more progress edits for this run. */
  closed?: boolean;
}

const channelClosed = (error: unknown): boolean =>
  asAppError(error).code === 'SLACK_NOT_IN_CHANNEL';

/** Facts that say the requester already knows where the run's report is. */
function toldElsewhere(state: RunState): boolean {
  return (
    state.facts['reportDm'] !== undefined ||
    state.facts['reportVia'] !== undefined ||
    state.facts['endNotified'] !== undefined
  );
}

export interface SlackObserverOptions {
  /** Approver settings shown on approval cards. */
  clusters: readonly ClusterConfig[];
  /** Keeps message ts on the run (a `recorded` signal), so no card is posted twice. */
  record(runId: string, facts: Record<string, unknown>): Promise<void>;
}

export class SlackRunObserver implements RunObserver {
  private readonly cards = new Map<string, CardState>();
  /** Approval cards this process already closed (edited to their decision). */
  private readonly closedApprovals = new Set<string>();
  private readonly results = new Map<string, { reply: boolean; file: boolean }>();

  constructor(
    private readonly chat: ChatPort,
    private readonly logger: Logger,
    private readonly options: SlackObserverOptions,
  ) {}

  private target(state: RunState): { channel: string; ts: string } | undefined {
    // A report moved to the requester's direct messages: that card is the one kept current.
    const dm = state.facts['reportDm'] as { channel?: unknown; ts?: unknown } | undefined;
    if (typeof dm?.channel === 'string' && typeof dm.ts === 'string') {
      return { channel: dm.channel, ts: dm.ts };
    }
    const channel = state.options.channel;
    const ts = state.facts['cardTs'];
    return channel === undefined || typeof ts !== 'string' ? undefined : { channel, ts };
  }

  private async edit(state: RunState, progress?: StepProgress): Promise<void> {
    const target = this.target(state);
    if (target === undefined) return;
    const card = runCard(state, progress);
    // The DM card keeps saying why it is a DM.
    const moved = target.channel !== state.options.channel;
    await this.chat.update(
      target.channel,
      target.ts,
      moved ? elsewhereNote(state.options.channel, card) : card,
    );
  }

  private card(state: RunState): CardState {
    let card = this.cards.get(state.id);
    if (card === undefined) {
      card = { last: 0, progressShown: Date.now() };
      this.cards.set(state.id, card);
    }
    return card;
  }

  progress(state: RunState, progress: StepProgress): void {
    if (this.target(state) === undefined || state.phase === 'done') return;
    const card = this.card(state);
    card.progress = progress;
    if (Date.now() - card.progressShown < PROGRESS_GAP_MS) return;
    card.progressShown = Date.now();
    this.schedule(state, card);
  }

  changed(state: RunState): Promise<void> {
    if (state.phase !== 'awaiting-approval' && state.phase !== 'done') this.closeApproval(state);
    if (this.target(state) === undefined || state.phase === 'done') return Promise.resolve();
    const card = this.card(state);
    // A new step: the previous step's progress no longer applies.
    if (card.latest?.stepIndex !== state.stepIndex || card.latest.track !== state.track) {
      card.progress = undefined;
    }
    this.schedule(state, card);
    return Promise.resolve();
  }

  private schedule(state: RunState, card: CardState): void {
    card.latest = state;
    // The report may move to a DM card (reportDm): that one is editable again.
    if (card.closed === true && this.target(state)?.channel === state.options.channel) return;
    if (card.timer !== undefined) return;
    // One edit per card at a time: while Slack is slow or rate-limiting, changes pile up as
    // `latest` and only the newest is sent once the edit in flight is done.
    if (card.inFlight !== undefined) {
      card.again = true;
      return;
    }
    const wait = Math.max(0, card.last + MIN_GAP_MS - Date.now());
    card.timer = setTimeout(() => {
      card.timer = undefined;
      const latest = card.latest;
      if (latest === undefined) return;
      card.last = Date.now();
      card.again = false;
      card.inFlight = this.edit(latest, card.progress)
        .catch((error: unknown) => {
          // A closed channel was logged once by the adapter; the end of the run handles it.
          if (channelClosed(error)) {
            card.closed = true;
            return;
          }
          this.logger.warn({ err: error, runId: latest.id }, 'could not update the status card');
        })
        .finally(() => {
          card.inFlight = undefined;
          const next = card.latest;
          if (card.again === true && next !== undefined && this.cards.get(next.id) === card) {
            this.schedule(next, card);
          }
        });
    }, wait);
    card.timer.unref();
  }

  private settings(state: RunState): Pick<ClusterConfig, 'approvers' | 'fourEyes'> {
    const cluster = this.options.clusters.find((c) => c.name === state.cluster);
    return cluster ?? { approvers: { users: [], groups: [] }, fourEyes: true };
  }

  /** Posts the approval card in the run's thread, once: its ts is kept on the run. */
  async approvalRequested(state: RunState): Promise<void> {
    const target = this.target(state);
    if (target === undefined || typeof state.facts['approvalTs'] === 'string') return;
    const { ts } = await this.chat.post(target.channel, approvalCard(state, this.settings(state)), {
      threadTs: target.ts,
      key: `${state.id}:approval`,
      mayExist: wasResumed(state),
    });
    // Its buttons act only once the run knows this ts: keep it through a Redis restart.
    await whileRedisDown(() => this.options.record(state.id, { approvalTs: ts }));
  }

  /** Edits the approval card to its decision (who, when, why), which also removes its buttons. */
  private closeApproval(state: RunState): void {
    const channel = state.options.channel;
    const ts = state.facts['approvalTs'];
    if (channel === undefined || typeof ts !== 'string' || this.closedApprovals.has(state.id))
      return;
    this.closedApprovals.add(state.id);
    this.chat
      .update(channel, ts, approvalCard(state, this.settings(state)))
      .catch((error: unknown) => {
        this.closedApprovals.delete(state.id);
        this.logger.warn({ err: error, runId: state.id }, 'could not close the approval card');
      });
  }

  /** The result in the thread (with the Rollback button) and the evidence as a file, once. */
  private async postResult(state: RunState): Promise<void> {
    const target = this.target(state);
    if (target === undefined || state.kind === 'preflight') return;
    // What is on the run was posted already (by this process or one killed after posting it):
    // a retry, or the next process announcing the run, posts only what is missing.
    let done = this.results.get(state.id) ?? {
      reply: typeof state.facts['resultTs'] === 'string',
      file: state.facts['evidencePosted'] === true,
    };
    if (done.reply && (done.file || state.evidence.length === 0)) return;
    this.results.set(state.id, done);
    if (!done.reply) {
      const { ts } = await this.chat.post(target.channel, resultReply(state), {
        threadTs: target.ts,
        key: `${state.id}:result`,
        mayExist: wasResumed(state),
      });
      done = { ...done, reply: true };
      this.results.set(state.id, done);
      await whileRedisDown(() => this.options.record(state.id, { resultTs: ts })).catch(
        (error: unknown) =>
          this.logger.warn({ err: error, runId: state.id }, 'could not keep the result ts'),
      );
    }
    if (!done.file && state.evidence.length > 0) {
      // Marked before the upload: a process killed mid-upload leaves the next one a run that
      // says "posted", so the file is never there twice (at worst missing; the reply says how
      // the run ended). Failures in this process are retried through `results`.
      if (state.facts['evidencePosted'] !== true)
        await this.options.record(state.id, { evidencePosted: true });
      await this.chat.uploadFile(target.channel, {
        filename: `${state.id}-evidence.md`,
        title: `Evidence · ${state.cluster} · ${state.node ?? '?'}`,
        content: evidenceReport(state),
        threadTs: target.ts,
      });
      done = { ...done, file: true };
      this.results.set(state.id, done);
    }
    this.results.delete(state.id);
  }

  async finished(state: RunState): Promise<void> {
    const card = this.cards.get(state.id);
    this.cards.delete(state.id);
    if (card?.timer !== undefined) clearTimeout(card.timer);
    await card?.inFlight;
    this.closeApproval(state);
    this.closedApprovals.delete(state.id);
    let closed = this.target(state) === undefined && state.options.channel !== undefined;
    try {
      await this.retried(() => this.edit(state));
      await this.retried(() => this.postResult(state));
    } catch (error) {
      if (!channelClosed(error)) throw error;
      closed = true;
    }
    if (closed && !toldElsewhere(state)) await this.tellEnd(state);
  }

  /**
   * The channel is closed to the bot: the requester learns the end directly, once (the notice
   * is keyed, and `endNotified` is kept on the run).
   */
  private async tellEnd(state: RunState): Promise<void> {
    const message = state.kind === 'preflight' ? runCard(state) : resultReply(state);
    const route = await tellRequester(this.chat, state, message, `${state.id}:end`, this.logger);
    if (route === undefined) {
      this.logger.error(
        { runId: state.id, channel: state.options.channel, outcome: state.outcome },
        'nobody could be told how the run ended: the channel is closed to the bot and the requester cannot be reached',
      );
      return;
    }
    await this.options
      .record(state.id, { endNotified: route.via })
      .catch((error: unknown) =>
        this.logger.warn({ err: error, runId: state.id }, 'could not keep where the end was told'),
      );
  }

  /** Retries what Slack may accept later; a refusal (a closed channel, auth) ends at once. */
  private async retried(attempt: () => Promise<void>): Promise<void> {
    for (let n = 1; ; n += 1) {
      try {
        await attempt();
        return;
      } catch (error) {
        if (n >= FINAL_ATTEMPTS || !asAppError(error).retryable) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** n));
      }
    }
  }
}
