/**
 * A terminal run's voice: progress on stderr (a rewritten line on a TTY, a line per tenth of the
 * way otherwise, so CI logs stay short), each step as it ends, and the confirmation prompt a
 * person answers like `terraform apply`'s. Data (reports, JSON) goes to stdout elsewhere.
 */
import { createInterface } from 'node:readline/promises';
import type { RunState } from '../../core/run-state.js';
import { runbooks } from '../../runbooks/index.js';
import { stepLines } from '../../views/run-progress.js';
import type { RunObserver, StepProgress } from '../observer.js';

export interface TerminalStreams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export type Decision = (state: RunState, approved: boolean) => Promise<void>;

function titles(state: RunState): Map<string, string> {
  const book = runbooks[state.kind];
  return new Map([
    ...book.steps.map((s) => [`forward:${s.id}`, s.title] as const),
    ...book.rollback.map((s) => [`rollback:${s.id}`, s.title] as const),
  ]);
}

export class TerminalRunObserver implements RunObserver {
  private shownSteps = new Map<string, number>();
  private lastTenth = -1;
  private decide: Decision | undefined;

  constructor(
    private readonly io: TerminalStreams,
    /** Print step lines (mutating runs); pre-flight shows its probing progress only. */
    private readonly showSteps: boolean,
  ) {}

  /** Where the answer to the confirmation prompt goes (the terminal signals the run). */
  onDecision(decide: Decision): void {
    this.decide = decide;
  }

  private get tty(): boolean {
    return this.io.stderr.isTTY === true;
  }

  progress(_state: RunState, p: StepProgress): void {
    if (p.phase === 'listing') return;
    const line = p.phase === 'probing' ? `probing nodes ${p.done}/${p.total}` : 'running checks';
    if (this.tty) {
      this.io.stderr.write(`\r${line}\u001b[K${p.phase === 'checking' ? '\n' : ''}`);
      return;
    }
    const tenth = p.total === 0 ? 0 : Math.floor((p.done / p.total) * 10);
    if (p.phase !== 'probing' || tenth !== this.lastTenth) this.io.stderr.write(`${line}\n`);
    this.lastTenth = p.phase === 'probing' ? tenth : -1;
  }

  changed(state: RunState): Promise<void> {
    if (!this.showSteps) return Promise.resolve();
    const lines = stepLines(state, titles(state)).filter((l) => !l.startsWith('…'));
    const shown = this.shownSteps.get(state.id) ?? 0;
    for (const line of lines.slice(shown)) this.io.stderr.write(`${line}\n`);
    this.shownSteps.set(state.id, Math.max(shown, lines.length));
    return Promise.resolve();
  }

  async approvalRequested(state: RunState): Promise<void> {
    const plan = state.plan;
    this.io.stderr.write(
      `\n${state.kind === 'rollback' ? 'Rollback' : 'Cutover'} of ${state.node ?? '?'} on ${state.cluster}, plan ${plan?.hash ?? '?'}:\n` +
        (plan?.actions ?? []).map((a, i) => `  ${i + 1}. ${a}\n`).join(''),
    );
    const decide = this.decide;
    if (decide === undefined || this.io.stdin.isTTY !== true) {
      // cutover refuses this before it starts; resume gets here for a prompt a killed terminal
      // left unanswered, and nobody said yes.
      await decide?.(state, false);
      return;
    }
    const rl = createInterface({ input: this.io.stdin, output: this.io.stderr });
    try {
      const answer = await rl.question('\nApply this plan? Only "yes" is accepted: ');
      await decide(state, answer.trim() === 'yes');
    } finally {
      rl.close();
    }
  }

  finished(): Promise<void> {
    return Promise.resolve();
  }
}
