/**
 * Product metrics from the saved run state, as the audit observer records facts: every fact is
 * counted once per process by its stable key, and only facts from this process's lifetime (a
 * resumed run's earlier steps were counted by the process that ran them, and a restarted
 * process starts its counters at zero anyway). Never fails a run.
 */
import type { Metrics } from '../../adapters/metrics.js';
import { auditEntries } from '../../core/audit.js';
import type { RunState } from '../../core/run-state.js';
import type { RunObserver } from '../observer.js';

export type RunMetrics = Pick<
  Metrics,
  | 'runsStarted'
  | 'runsFinished'
  | 'stepSeconds'
  | 'verifications'
  | 'clusterWrites'
  | 'decisions'
  | 'lockAcquisitions'
>;

export class MetricsRunObserver implements RunObserver {
  private readonly counted = new Map<string, Set<string>>();

  constructor(
    private readonly metrics: RunMetrics,
    /** Facts older than this are not this process's to count. */
    private readonly since: Date = new Date(),
  ) {}

  private count(state: RunState): void {
    const seen = this.counted.get(state.id) ?? new Set<string>();
    this.counted.set(state.id, seen);
    const fresh = (key: string, at: string | undefined): boolean => {
      if (seen.has(key) || at === undefined || Date.parse(at) < this.since.getTime()) return false;
      seen.add(key);
      return true;
    };
    const kind = state.kind;
    for (const entry of auditEntries(state)) {
      if (!fresh(entry.key, entry.at)) continue;
      switch (entry.kind) {
        case 'requested':
          this.metrics.runsStarted.inc({ kind });
          break;
        case 'approved':
        case 'rejected':
        case 'expired':
          this.metrics.decisions.inc({ kind, decision: entry.kind });
          if (entry.kind === 'expired') this.metrics.runsFinished.inc({ kind, outcome: 'refused' });
          break;
        case 'ended':
          this.metrics.runsFinished.inc({ kind, outcome: state.outcome ?? 'failed' });
          break;
        case 'mutation':
          this.metrics.clusterWrites.inc({
            action: entry.action?.kind ?? 'unknown',
            outcome: entry.ok === false ? 'failed' : 'applied',
          });
          break;
        case 'verification':
          break;
        case 'click-refused':
        case 'event':
          break;
      }
    }
    // Verification results by probe name (the audit line carries it only as text).
    state.evidence.forEach((e, i) => {
      if (e.step !== 'verify' && e.step !== 'verify-back') return;
      if (!fresh(`probe/${i}`, e.at)) return;
      this.metrics.verifications.inc({ probe: e.probe, result: e.ok ? 'pass' : 'fail' });
    });
    for (const step of state.steps) {
      if (step.endedAt === undefined || step.startedAt === undefined) continue;
      if (step.status !== 'done' && step.status !== 'failed') continue;
      if (!fresh(`step/${step.track}/${step.id}/${step.attempts}`, step.endedAt)) continue;
      const seconds = (Date.parse(step.endedAt) - Date.parse(step.startedAt)) / 1000;
      this.metrics.stepSeconds.observe(
        { kind, step: step.id, status: step.status },
        Math.max(0, seconds),
      );
      if (step.id === 'lock') {
        // cluster-lease.ts notes `taken` or `taken over from …`; anything else is a refusal.
        const result =
          step.note === 'taken'
            ? 'taken'
            : step.note?.startsWith('taken over') === true
              ? 'taken-over'
              : 'held';
        this.metrics.lockAcquisitions.inc({ result });
      }
    }
  }

  changed(state: RunState): Promise<void> {
    this.count(state);
    return Promise.resolve();
  }

  approvalRequested(state: RunState): Promise<void> {
    this.count(state);
    return Promise.resolve();
  }

  finished(state: RunState): Promise<void> {
    this.count(state);
    this.counted.delete(state.id);
    return Promise.resolve();
  }
}
