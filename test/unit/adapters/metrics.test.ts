import { describe, expect, it } from 'vitest';
import { createMetrics, statusClass } from '../../../src/adapters/metrics.js';
import { lintExposition } from '../../helpers/metrics-lint.js';

describe('the metrics lint', () => {
  it('finds what promtool and Prometheus would object to', () => {
    const bad = [
      '# HELP proxy_migrate_runs Runs.',
      '# TYPE proxy_migrate_runs counter',
      'proxy_migrate_runs{job="preflight"} 1',
      '# HELP proxy_migrate_wait_milliseconds Waits.',
      '# TYPE proxy_migrate_wait_milliseconds gauge',
      'proxy_migrate_wait_milliseconds{node="blue-1"} 3',
      '# TYPE proxy_migrate_open_total gauge',
      'proxy_migrate_open_total 2',
      '# HELP migrateRuns Runs.',
      '# TYPE migrateRuns gauge',
      'migrateRuns 1',
      '',
    ].join('\n');
    expect(lintExposition(bad)).toEqual([
      'proxy_migrate_runs: a counter must end in _total',
      'proxy_migrate_runs: label "job" is set by Prometheus (it would become exported_job)',
      'proxy_migrate_wait_milliseconds: use base units (seconds, bytes)',
      'proxy_migrate_wait_milliseconds: label "node" is unbounded (one series per node)',
      'proxy_migrate_open_total: no HELP',
      'proxy_migrate_open_total: only counters end in _total',
      'migrateRuns: not snake_case',
      'migrateRuns: neither proxy_migrate_* nor a stock process_/nodejs_/bullmq_ name',
    ]);
  });

  it('passes every metric the product registers, with stock process metrics unprefixed', async () => {
    const metrics = createMetrics();
    metrics.runsFinished.inc({ kind: 'cutover', outcome: 'verified' });
    metrics.stepSeconds.observe({ kind: 'cutover', step: 'verify', status: 'done' }, 3);
    const text = await metrics.registry.metrics();
    expect(lintExposition(text)).toEqual([]);
    expect(text).toContain('# TYPE process_cpu_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('keeps HTTP statuses to a few classes, 409 and 429 apart', () => {
    expect([200, 201, 404, 409, 429, 500, 503].map(statusClass)).toEqual([
      '2xx',
      '2xx',
      '4xx',
      '409',
      '429',
      '5xx',
      '5xx',
    ]);
  });
});
