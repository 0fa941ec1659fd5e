/**
 * Run claims in this process (the in-process executor without Redis): the same rules as the
 * Redis claims, with the run store read to see whether the holder has ended. Claims of one key
 * are decided one after another, so two identical requests never both win.
 */
import { CLAIM_CREATE_GRACE_MS, type RunClaims } from '../../ports/run-claims.js';
import type { RunStore } from '../../ports/run-store.js';

export class MemoryRunClaims implements RunClaims {
  private readonly held = new Map<string, { runId: string; at: number }>();
  private readonly deciding = new Map<string, Promise<void>>();

  constructor(
    private readonly store: RunStore,
    private readonly now: () => number = Date.now,
  ) {}

  claim(key: string, runId: string): Promise<string | undefined> {
    const decided = (this.deciding.get(key) ?? Promise.resolve()).then(() =>
      this.decide(key, runId),
    );
    const settled = decided.then(
      () => undefined,
      () => undefined,
    );
    this.deciding.set(key, settled);
    void settled.then(() => {
      if (this.deciding.get(key) === settled) this.deciding.delete(key);
    });
    return decided;
  }

  private async decide(key: string, runId: string): Promise<string | undefined> {
    const held = this.held.get(key);
    if (held !== undefined && held.runId !== runId) {
      const state = await this.store.get(held.runId);
      if (state !== undefined && state.phase !== 'done') return held.runId;
      if (state === undefined && this.now() - held.at < CLAIM_CREATE_GRACE_MS) return held.runId;
    }
    this.held.set(key, { runId, at: this.now() });
    return undefined;
  }

  release(key: string, runId: string): Promise<void> {
    if (this.held.get(key)?.runId === runId) this.held.delete(key);
    return Promise.resolve();
  }
}
