/**
 * Prometheus metrics: a dedicated registry (no global state between tests) with the standard
 * process and Node.js metrics under their stock names (process_*, nodejs_*: what stock dashboards
 * query) plus the product's, all `proxy_migrate_*`. Conventions (checked by
 * test/integration/adapters/metrics-lint.test.ts): counters end in `_total`, durations are
 * `_seconds`, no label is named `job` or `instance` (Prometheus sets those on every scraped
 * series and renames a clashing one to `exported_job`), and labels stay low-cardinality: no node
 * names, no user ids, no run ids.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  slackCommands: Counter<'verb' | 'outcome'>;
  slackAckSeconds: Histogram<'verb'>;
  /** Slack Web API requests SlackChat made, by method and outcome. */
  slackApiCalls: Counter<'method' | 'outcome'>;
  /** Calls refused because the bot cannot post in a channel, by channel id and Slack's error. */
  slackChannelUnavailable: Counter<'channel' | 'error'>;
  /** BullMQ job attempts this process finished. */
  queueJobs: Counter<'queue_job' | 'outcome'>;
  runsStarted: Counter<'kind'>;
  runsFinished: Counter<'kind' | 'outcome'>;
  stepSeconds: Histogram<'kind' | 'step' | 'status'>;
  verifications: Counter<'probe' | 'result'>;
  clusterWrites: Counter<'action' | 'outcome'>;
  decisions: Counter<'kind' | 'decision'>;
  clickRefusals: Counter<'button' | 'reason'>;
  lockAcquisitions: Counter<'result'>;
  kubernetesRequests: Counter<'verb' | 'code'>;
  driftDetected: Counter<'cluster'>;
}

/** Step and lock waits run from milliseconds (a read) to many minutes (a DaemonSet rollout). */
const STEP_BUCKETS = [0.05, 0.25, 1, 5, 15, 30, 60, 120, 300, 600, 1800];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const counter = <L extends string>(name: string, help: string, labelNames: L[]): Counter<L> =>
    new Counter({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    slackCommands: counter(
      'proxy_migrate_slack_commands_total',
      'Slash commands received, by verb and outcome (accepted, rejected, failed).',
      ['verb', 'outcome'],
    ),
    slackAckSeconds: new Histogram({
      name: 'proxy_migrate_slack_ack_seconds',
      help: 'Time from receiving a slash command to acknowledging it (Slack allows 3 s).',
      labelNames: ['verb'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3],
      registers: [registry],
    }),
    slackApiCalls: counter(
      'proxy_migrate_slack_api_calls_total',
      'Slack Web API requests made for runs and replies, by method and outcome (ok, rate_limited, transient, uncertain, channel_unavailable, refused).',
      ['method', 'outcome'],
    ),
    slackChannelUnavailable: counter(
      'proxy_migrate_slack_channel_unavailable_total',
      'Slack calls refused because the bot cannot post in the channel (channel_not_found, not_in_channel, is_archived), by channel id and error: invite the bot or fix the clusters file.',
      ['channel', 'error'],
    ),
    queueJobs: counter(
      'proxy_migrate_queue_jobs_total',
      'Job attempts finished by this process, by job name and outcome (completed, failed; a retried attempt counts as failed).',
      ['queue_job', 'outcome'],
    ),
    runsStarted: counter(
      'proxy_migrate_runs_started_total',
      'Runs requested (preflight, cutover, rollback, repair, plan), as this process saw them begin.',
      ['kind'],
    ),
    runsFinished: counter(
      'proxy_migrate_runs_finished_total',
      'Runs ended, by kind and outcome (verified, refused, rolled-back, needs-attention, failed).',
      ['kind', 'outcome'],
    ),
    stepSeconds: new Histogram({
      name: 'proxy_migrate_step_duration_seconds',
      help: "A run step's duration from its start to its end, by run kind, step and status.",
      labelNames: ['kind', 'step', 'status'],
      buckets: STEP_BUCKETS,
      registers: [registry],
    }),
    verifications: counter(
      'proxy_migrate_verifications_total',
      'Verification probes of cutovers and rollbacks, by probe and result (pass, fail).',
      ['probe', 'result'],
    ),
    clusterWrites: counter(
      'proxy_migrate_cluster_writes_total',
      'Journaled cluster writes, by action kind and outcome (applied, failed, skipped).',
      ['action', 'outcome'],
    ),
    decisions: counter(
      'proxy_migrate_approval_decisions_total',
      'Approval requests decided, by run kind and decision (approved, rejected, expired).',
      ['kind', 'decision'],
    ),
    clickRefusals: counter(
      'proxy_migrate_click_refusals_total',
      'Button clicks refused, by button and reason code (not-approver, four-eyes, plan-changed, …).',
      ['button', 'reason'],
    ),
    lockAcquisitions: counter(
      'proxy_migrate_cluster_lock_acquisitions_total',
      'Attempts to take the cluster lock, by result (taken, taken-over, held: another run holds it).',
      ['result'],
    ),
    kubernetesRequests: counter(
      'proxy_migrate_kubernetes_requests_total',
      'Kubernetes API responses, by HTTP verb and status code class (2xx, 4xx, 409, 429, 5xx).',
      ['verb', 'code'],
    ),
    driftDetected: counter(
      'proxy_migrate_drift_detected_total',
      'Drifts the drift guard found and posted (the same drift is counted once), by cluster.',
      ['cluster'],
    ),
  };
}

/** An HTTP status as a low-cardinality label: `409` and `429` kept (they mean something to act on), the rest by class. */
export function statusClass(status: number): string {
  return status === 409 || status === 429 ? String(status) : `${Math.floor(status / 100)}xx`;
}
