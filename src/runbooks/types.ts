/**
 * A runbook's policy: what kind of run it is, whether it changes the cluster, and how the engine
 * may retry and bound it. Mutating runbooks (cutover, rollback) resume from their journal instead
 * of blindly retrying; read-only ones can simply run again.
 */
export interface RunbookPolicy {
  kind: string;
  title: string;
  /** Whether a run writes to the cluster (and so needs approval, a lock and a journal). */
  mutates: boolean;
  /** Attempts the queue makes before the run is reported as failed. */
  attempts: number;
  /** First retry delay; later ones double. */
  backoffMs: number;
  /** Reading the cluster must finish within this, however large the cluster. */
  gatherDeadlineMs: number;
}
