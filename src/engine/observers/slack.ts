/**
 * Keeps a Slack run's status card current: every change is rendered from the saved state and
 * edits the card in place, coalesced so a burst of steps is one chat.update (at most one a
 * second per run; Slack allows about 50 updates a minute per workspace). The end of a run is
 * always shown: the final edit is retried until it lands or the attempts run out.
 */
import type { RunState } from '../../core/run-state.js';
import type { Logger } from '../../log.js';
import type { ChatPort } from '../../ports/chat.js';
import { runCard } from '../../views/run-card.js';
import type { RunObserver, StepProgress } from '../observer.js';

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
}

export class SlackRunObserver implements RunObserver {
  private readonly cards = new Map<string, CardState>();

  constructor(
    private readonly chat: ChatPort,
    private readonly logger: Logger,
  ) {}

  private target(state: RunState): { channel: string; ts: string } | undefined {
    const channel = state.options.channel;
    const ts = state.facts['cardTs'];
    return channel === undefined || typeof ts !== 'string' ? undefined : { channel, ts };
  }

  private async edit(state: RunState, progress?: StepProgress): Promise<void> {
    const target = this.target(state);
    if (target === undefined) return;
    await this.chat.update(target.channel, target.ts, runCard(state, progress));
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
    if (card.timer !== undefined) return;
    const wait = Math.max(0, card.last + MIN_GAP_MS - Date.now());
    card.timer = setTimeout(() => {
      card.timer = undefined;
      const latest = card.latest;
      if (latest === undefined) return;
      card.last = Date.now();
      card.inFlight = this.edit(latest, card.progress)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, runId: latest.id }, 'could not update the status card'),
        )
        .finally(() => {
          card.inFlight = undefined;
        });
    }, wait);
    card.timer.unref();
  }

  approvalRequested(): Promise<void> {
    // The approval card in the thread comes with Slack approvals; the status card says "waits".
    return Promise.resolve();
  }

  async finished(state: RunState): Promise<void> {
    const card = this.cards.get(state.id);
    this.cards.delete(state.id);
    if (card?.timer !== undefined) clearTimeout(card.timer);
    await card?.inFlight;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.edit(state);
        return;
      } catch (error) {
        if (attempt >= FINAL_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      }
    }
  }
}
