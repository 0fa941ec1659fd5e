/**
 * Guards against alerts that go silent forever: IPVS/iptables-only kube-proxy metrics stop existing
 * in nftables mode (facts §7; playbook 000 trap 9).
 */
import { finding } from '../core/findings.js';
import { compareVersions } from '../core/parse/version.js';
import { ruleExpressions } from './support/prometheus-rules.js';
import { plural } from './support/text.js';
import type { Check } from './types.js';

export const NFTABLES_FAILURES = 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total';

/** Metrics registered only in iptables/IPVS mode, with what to use in nftables mode if anything. */
export const RETIRED_METRICS: Readonly<Record<string, string | undefined>> = {
  kubeproxy_sync_proxy_rules_iptables_restore_failures_total: NFTABLES_FAILURES,
  kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total: NFTABLES_FAILURES,
  kubeproxy_sync_full_proxy_rules_duration_seconds: 'kubeproxy_sync_proxy_rules_duration_seconds',
  kubeproxy_sync_partial_proxy_rules_duration_seconds:
    'kubeproxy_sync_proxy_rules_duration_seconds',
  kubeproxy_sync_proxy_rules_iptables_total: undefined,
  kubeproxy_sync_proxy_rules_iptables_last: undefined,
  kubeproxy_iptables_ct_state_invalid_dropped_packets_total: undefined,
};

/** The only one of {@link RETIRED_METRICS} IPVS mode registers (metrics.go `RegisterMetrics`). */
const IPVS_EXPORTED = 'kubeproxy_sync_proxy_rules_iptables_restore_failures_total';
const PARTIAL_RESTORE = 'kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total';

/** A metric name as a whole token, histogram series suffixes included. */
function metricPattern(metric: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9_:])${metric}(_bucket|_sum|_count)?(?![A-Za-z0-9_:])`, 'g');
}

export function retiredMetricsIn(expr: string): string[] {
  return Object.keys(RETIRED_METRICS).filter((m) => metricPattern(m).test(expr));
}

/** The same expression on nftables metrics; undefined when a metric has no counterpart. */
export function rewriteExpr(expr: string): string | undefined {
  let rewritten = expr;
  for (const metric of retiredMetricsIn(expr)) {
    const replacement = RETIRED_METRICS[metric];
    if (replacement === undefined) return undefined;
    rewritten = rewritten.replace(metricPattern(metric), (_m, suffix: string | undefined) =>
      replacement === NFTABLES_FAILURES ? replacement : `${replacement}${suffix ?? ''}`,
    );
  }
  return rewritten;
}

/**
 * A series kube-proxy exports in every mode from its first successful sync on (metrics.go
 * `RegisterMetrics` registers it for every mode; from 1.33 it carries ip_family too), so its
 * absence means the metrics are gone. Not the failure counter: from 1.33 it is an
 * ip_family-labelled vector, and no code was found that creates its series before the first
 * failure (fact-check #18, re-checked: still not found), so `absent()` on it may page forever.
 */
export const ALWAYS_EXPORTED = 'kubeproxy_sync_proxy_rules_last_timestamp_seconds';

const ABSENT_RULE = `- alert: KubeProxyNftablesSyncFailures
  expr: increase(${NFTABLES_FAILURES}[5m]) > 0
  for: 10m
- alert: KubeProxyMetricsAbsent
  expr: absent(${ALWAYS_EXPORTED}) == 1
  for: 15m`;

interface Hit {
  object: string;
  group: string;
  rule: string;
  expr: string;
  metrics: string[];
}

export const alertMetricRename: Check = {
  id: 'alert-metric-rename',
  title: 'No alert depends on a metric nftables mode does not export',
  run(ctx) {
    const rules = ctx.snapshot.prometheusRules;
    const scope = { kind: 'cluster' as const, name: ctx.snapshot.cluster };
    const grep = `grep -rnE '${Object.keys(RETIRED_METRICS).join('|')}' <your alert rules>`;
    if (rules === undefined) {
      return [
        finding({
          check: alertMetricRename.id,
          severity: 'info',
          scope,
          title: 'Alerts not checked: the PrometheusRule CRD is not installed',
          detail:
            'kubeproxy_sync_proxy_rules_iptables_restore_failures_total and the other iptables/IPVS-only metrics stop existing in nftables mode, and a counter alert on a missing metric stays green forever. Look in the other places alerts live: Prometheus rule files, Grafana or Datadog monitors.',
          commands: [grep],
        }),
      ];
    }
    const hits: Hit[] = [];
    for (const { object, group, alert, record, expr } of ruleExpressions(rules)) {
      const metrics = retiredMetricsIn(expr);
      if (metrics.length === 0) continue;
      const name = alert ?? (record === undefined ? 'unnamed rule' : `record ${record}`);
      hits.push({ object, group, rule: name, expr, metrics });
    }
    if (hits.length === 0) return [];
    const version = ctx.kubeProxyVersion?.version;
    const labelled =
      version !== undefined && compareVersions(version, { major: 1, minor: 33, patch: 0 }) >= 0;
    const objects = [...new Set(hits.map((h) => h.object))].sort();
    const rewrites = hits.flatMap((h) => {
      const rewritten = rewriteExpr(h.expr);
      return rewritten === undefined
        ? []
        : [
            `# ${h.object} ${h.group}/${h.rule}, during the roll-out keep both:\nexpr: (${h.expr.trim()}) or (${rewritten.trim()})`,
          ];
    });
    const noCounterpart = hits.filter((h) => rewriteExpr(h.expr) === undefined);
    const used = new Set(hits.flatMap((h) => h.metrics));
    // metrics.go RegisterMetrics(mode): IPVS mode registers only the restore-failure counter of
    // these, and a partial-restore failure only falls back to a full sync (fact-check #16).
    const ipvsSilent =
      ctx.kubeProxy.mode?.effective === 'ipvs'
        ? [...used].filter((m) => m !== IPVS_EXPORTED).sort()
        : [];
    const notes = [
      ...(ipvsSilent.length > 0
        ? [
            ` In IPVS mode kube-proxy exports only ${IPVS_EXPORTED} of these, so the rules on ${ipvsSilent.join(', ')} are already silent today.`,
          ]
        : []),
      ...(used.has(PARTIAL_RESTORE)
        ? [
            ` ${PARTIAL_RESTORE} maps loosely onto ${NFTABLES_FAILURES}: a partial-restore failure only made kube-proxy fall back to a full sync, while a failed nftables sync is a real failure.`,
          ]
        : []),
    ].join('');
    return [
      finding({
        check: alertMetricRename.id,
        severity: 'warn',
        scope,
        subjects: objects,
        title: `${plural(hits.length, 'alert rule')} in ${plural(objects.length, 'PrometheusRule')} use metrics nftables mode does not export`,
        detail: `In nftables mode kube-proxy exports ${NFTABLES_FAILURES} instead of the iptables restore-failure counter, and none of the iptables-only series; an alert on a metric that stopped existing never fires. ${hits.map((h) => `${h.object} group ${h.group}, ${h.rule}: \`${h.expr.trim()}\` (${h.metrics.join(', ')})`).join('; ')}.${noCounterpart.length > 0 ? ` No nftables counterpart exists for ${[...new Set(noCounterpart.flatMap((h) => h.metrics))].join(', ')}: retire those rules or replace them with the sync-duration histogram.` : ''}${notes}`,
        remedy: `Rewrite the rules on ${NFTABLES_FAILURES} before the roll-out (OR both metrics while nodes run mixed modes) and add an absent(${ALWAYS_EXPORTED}) == 1 rule so losing kube-proxy's metrics pages you. Do not put absent() on ${NFTABLES_FAILURES}: from kube-proxy 1.33 it is an ip_family-labelled counter, which has no series until something creates one, and no kube-proxy code was found that creates it before the first failure, so that rule may page forever on healthy nodes. ${labelled ? 'kube-proxy 1.33+ labels these counters with ip_family, so aggregate with sum without (ip_family) where a rule compares series.' : 'From kube-proxy 1.33 these counters carry an ip_family label; aggregate over it when you upgrade.'}`,
        commands: [...rewrites, ABSENT_RULE],
      }),
    ];
  },
};
