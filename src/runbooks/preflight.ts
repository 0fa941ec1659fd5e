/**
 * Pre-flight: read the cluster (paged lists, then node probes), run every check, report. It
 * never writes (its probe pods are housekeeping, removed by the run), so a failed step is simply
 * run again. Reporting is a step of its own: a Slack failure re-posts, it does not re-read.
 */
import type { Runbook } from '../core/runbook.js';

/** Reading the cluster must finish within this, however large the cluster. */
export const PREFLIGHT_GATHER_DEADLINE_MS = 120_000;

export const preflightRunbook = {
  kind: 'preflight',
  title: 'Pre-flight',
  mutates: false,
  backoffMs: 2_000,
  steps: [
    { id: 'card', kind: 'report', uses: 'status-card', title: 'status card posted', attempts: 5 },
    {
      id: 'gather',
      kind: 'capture',
      uses: 'preflight-report',
      title: 'cluster read and checked',
      attempts: 3,
    },
    { id: 'report', kind: 'report', uses: 'preflight-thread', title: 'report posted', attempts: 5 },
  ],
  rollback: [],
} as const satisfies Runbook;
