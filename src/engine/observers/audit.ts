/**
 * Records every run's audit facts as the run moves (after every save), from the saved state:
 * the facts are keyed, so recording them again after a crash or from another process adds
 * nothing. Never fails a run: a Redis hiccup is logged and the facts are recorded at the next
 * save (they are derived from the state, not from the event).
 */
import { auditEntries } from '../../core/audit.js';
import type { RunState } from '../../core/run-state.js';
import type { Logger } from '../../log.js';
import type { AuditLog } from '../../ports/audit-log.js';
import type { RunObserver } from '../observer.js';

export class AuditRunObserver implements RunObserver {
  /** Keys this process already recorded, per run: most saves add one or two facts. */
  private readonly recorded = new Map<string, Set<string>>();

  constructor(
    private readonly log: AuditLog,
    private readonly logger: Logger,
  ) {}

  private async record(state: RunState): Promise<void> {
    const seen = this.recorded.get(state.id) ?? new Set<string>();
    this.recorded.set(state.id, seen);
    const fresh = auditEntries(state).filter((e) => !seen.has(e.key));
    try {
      await this.log.append(fresh);
      for (const e of fresh) seen.add(e.key);
    } catch (error) {
      this.logger.warn({ err: error, runId: state.id }, 'could not record the audit trail');
    }
  }

  changed(state: RunState): Promise<void> {
    return this.record(state);
  }

  approvalRequested(state: RunState): Promise<void> {
    return this.record(state);
  }

  async finished(state: RunState): Promise<void> {
    await this.record(state);
    this.recorded.delete(state.id);
  }
}
