/**
 * Pre-flight: read the cluster (paged lists, then kube-proxy's ConfigMap) and report what it
 * shows, per pool. It never writes, so retrying a failed attempt is always safe.
 */
import type { RunbookPolicy } from './types.js';

export const preflightRunbook = {
  kind: 'preflight',
  title: 'Pre-flight',
  mutates: false,
  attempts: 3,
  backoffMs: 2_000,
  gatherDeadlineMs: 120_000,
} as const satisfies RunbookPolicy;
