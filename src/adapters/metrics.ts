/**
 * Prometheus metrics: a dedicated registry (no global state between tests) with process
 * defaults plus the product's counters. Labels stay low-cardinality: no node names, no user ids.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  slackCommands: Counter<'verb' | 'outcome'>;
  slackAckSeconds: Histogram<'verb'>;
  jobs: Counter<'job' | 'outcome'>;
  slackApiCalls: Counter<'method' | 'outcome'>;
  slackChannelUnavailable: Counter<'channel' | 'error'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'proxy_migrate_' });
  return {
    registry,
    slackCommands: new Counter({
      name: 'proxy_migrate_slack_commands_total',
      help: 'Slash commands received, by verb and outcome (accepted, rejected, failed).',
      labelNames: ['verb', 'outcome'],
      registers: [registry],
    }),
    slackAckSeconds: new Histogram({
      name: 'proxy_migrate_slack_ack_seconds',
      help: 'Time from receiving a slash command to acknowledging it (Slack allows 3 s).',
      labelNames: ['verb'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'proxy_migrate_jobs_total',
      help: 'Job attempts finished by this process, by job name and outcome (completed, failed; a retried attempt counts as failed).',
      labelNames: ['job', 'outcome'],
      registers: [registry],
    }),
    slackApiCalls: new Counter({
      name: 'proxy_migrate_slack_api_calls_total',
      help: 'Slack Web API requests made for runs and replies, by method and outcome (ok, rate_limited, transient, uncertain, channel_unavailable, refused).',
      labelNames: ['method', 'outcome'],
      registers: [registry],
    }),
    slackChannelUnavailable: new Counter({
      name: 'proxy_migrate_slack_channel_unavailable_total',
      help: 'Slack calls refused because the bot cannot post in the channel (channel_not_found, not_in_channel, is_archived), by channel id and error: invite the bot or fix the clusters file.',
      labelNames: ['channel', 'error'],
      registers: [registry],
    }),
  };
}
