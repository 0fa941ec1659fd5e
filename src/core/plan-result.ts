/**
 * The plan people review before a cutover, as data: what `plan --format json` prints and what
 * the Slack plan card shows. Computed by engine/plan-report.ts; rendered by views/plan-text.ts
 * and views/plan-card.ts.
 */
import type { CanaryVerdict } from './canary-allowed.js';
import type { OrderedNode } from './node-order.js';
import type { PlanDiff } from './plan-diff.js';

/** What the dry run said: the acceptance sentence, or one line per refused write. */
export const DRY_RUN_ACCEPTED = 'every write accepted by the API server (dryRun=All)';

/** The plan as `plan --format json` prints it (the field order is the JSON's). */
export interface PlanReport {
  cluster: string;
  node?: string;
  hash: string;
  /** The platform's name, e.g. `kubeadm`, `Amazon EKS`. */
  platform: string;
  canary: CanaryVerdict;
  /** Each action described, `(already so)` when the cluster already has it. */
  actions: string[];
  /** {@link DRY_RUN_ACCEPTED}, or `<action>: <why>` for every write the API server refused. */
  dryRun: string | string[];
  /** Configuration carried into `nftables.*`. */
  changes: string[];
  /** IPVS-only settings with no nftables equivalent. */
  dropped: string[];
  diffs: PlanDiff[];
  order: OrderedNode[];
}

/** The writes the API server refused in the dry run (none: the plan can be applied as shown). */
export function dryRunRefusals(report: Pick<PlanReport, 'dryRun'>): readonly string[] {
  return Array.isArray(report.dryRun) ? report.dryRun : [];
}

/** Whether a cutover with this plan would get past its plan and canary gates. */
export function planAccepted(report: Pick<PlanReport, 'dryRun' | 'canary'>): boolean {
  return dryRunRefusals(report).length === 0 && report.canary.allowed;
}
