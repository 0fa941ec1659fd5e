/**
 * Steps and timed signals in this process: the terminal and the demo without Redis. The same
 * engine and run store rules as with BullMQ; timers instead of jobs. `idle()` resolves when no
 * step is due or running, which is when a terminal run waiting for nobody has ended.
 */
import type { RunEvent } from '../core/run-events.js';
import type { Logger } from '../log.js';
import type { RunEngine, StepScheduler } from './run-engine.js';

export class LocalScheduler implements StepScheduler {
  private engine: RunEngine | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly logger: Logger) {}

  bind(engine: RunEngine): void {
    this.engine = engine;
  }

  private later(delayMs: number, work: (engine: RunEngine) => Promise<unknown>): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const engine = this.engine;
      if (engine === undefined || this.closed) return;
      const task = work(engine)
        .then(() => undefined)
        .catch((error: unknown) => this.logger.error({ err: error }, 'in-process step failed'))
        .finally(() => this.running.delete(task));
      this.running.add(task);
    }, delayMs);
    this.timers.add(timer);
  }

  execute(runId: string, stepId: string, _version: number, delayMs: number): Promise<void> {
    this.later(delayMs, (engine) => engine.advance(runId, stepId));
    return Promise.resolve();
  }

  signalAt(runId: string, event: RunEvent, at: Date): Promise<void> {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.closed) void this.engine?.signal(runId, event).catch(() => undefined);
      },
      Math.max(0, at.getTime() - Date.now()),
    );
    // An expiry timer alone must not keep a finished terminal process alive.
    timer.unref();
    this.timers.add(timer);
    return Promise.resolve();
  }

  /** Resolves when nothing is running and no step is due (unref'd expiry timers aside). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running.size > 0) await Promise.allSettled([...this.running]);
      else if ([...this.timers].some((t) => t.hasRef()))
        await new Promise((r) => setTimeout(r, 20));
      else return;
    }
  }

  /** Stops starting work and waits for what runs, up to `graceMs`. */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
