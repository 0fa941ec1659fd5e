// /metrics of a bot that has run a pre-flight and refused a click: every family passes the
// promtool-style lint (test/helpers/metrics-lint.ts), the product's counters move, and every
// metric the shipped alerts and dashboard query exists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parsePrometheusText, samplesNamed } from '../../../src/core/parse/prometheus.js';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import { familyOf, lintExposition, metricNamesIn } from '../../helpers/metrics-lint.js';

const ROOT = join(import.meta.dirname, '../../..');
let h: BotHarness;
let text: string;

beforeAll(async () => {
  h = await startHarness();
  await h.command('preflight cluster-a', { responseId: 'pf' });
  const queued = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'pf'));
  const runId = /run (pf-[a-z0-9-]+)/.exec(JSON.stringify(queued.body))?.[1];
  await h.bot.runs.waitFor(runId!, 30_000);
  const response = await fetch(`${h.baseUrl}/metrics`);
  text = await response.text();
}, 60_000);

afterAll(async () => {
  await h.stop();
});

function families(): Map<string, { samples: { labels: Record<string, string>; value: number }[] }> {
  const result = parsePrometheusText(text);
  if (!result.ok) throw new Error(result.error);
  return result.value.families;
}

describe('/metrics', () => {
  it('passes the lint: names, types, units, help, no job or instance label, bounded labels', () => {
    expect(lintExposition(text)).toEqual([]);
  });

  it('moves the product counters during a pre-flight', () => {
    const result = parsePrometheusText(text);
    if (!result.ok) throw new Error(result.error);
    const m = result.value;
    const value = (name: string, labels: Record<string, string>): number =>
      samplesNamed(m, name)
        .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((n, s) => n + s.value, 0);
    expect(value('proxy_migrate_runs_started_total', { kind: 'preflight' })).toBe(1);
    expect(
      value('proxy_migrate_runs_finished_total', { kind: 'preflight', outcome: 'verified' }),
    ).toBe(1);
    expect(
      value('proxy_migrate_step_duration_seconds_count', { kind: 'preflight' }),
    ).toBeGreaterThan(0);
    expect(
      value('proxy_migrate_kubernetes_requests_total', { verb: 'GET', code: '2xx' }),
    ).toBeGreaterThan(0);
    expect(
      value('proxy_migrate_slack_api_calls_total', { method: 'chat.postMessage', outcome: 'ok' }),
    ).toBeGreaterThan(0);
    expect(value('proxy_migrate_queue_jobs_total', { outcome: 'completed' })).toBeGreaterThan(0);
    // BullMQ's own completed counter moves only when the worker keeps metrics.
    expect(value('bullmq_job_completed_total', {})).toBeGreaterThan(0);
    expect(value('process_resident_memory_bytes', {})).toBeGreaterThan(0);
    expect(m.families.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('has every metric the PrometheusRule and the Grafana dashboard query', () => {
    const known = new Set(families().keys());
    const rules = parse(
      readFileSync(join(ROOT, 'deploy/monitoring/prometheusrule.yaml'), 'utf8'),
    ) as {
      spec: { groups: { rules: { alert: string; expr: string }[] }[] };
    };
    const exprs = rules.spec.groups.flatMap((g) => g.rules.map((r) => r.expr));
    const dashboard = JSON.parse(
      readFileSync(join(ROOT, 'deploy/monitoring/grafana-dashboard.json'), 'utf8'),
    ) as { panels: { targets: { expr: string }[] }[] };
    exprs.push(...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)));
    const names = exprs.flatMap(metricNamesIn);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => familyOf(n, known) === undefined)).toEqual([]);
  });
});
