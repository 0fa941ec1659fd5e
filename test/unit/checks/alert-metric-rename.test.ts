import { describe, expect, it } from 'vitest';
import {
  alertMetricRename,
  retiredMetricsIn,
  rewriteExpr,
} from '../../../src/checks/alert-metric-rename.js';
import { ctxOf, prometheusRule } from '../../fixtures/checks-b.js';

const restoreAlert = {
  alert: 'KubeProxyRestoreFailing',
  expr: 'increase(kubeproxy_sync_proxy_rules_iptables_restore_failures_total[5m]) > 0',
};

describe('alert-metric-rename', () => {
  it('warns naming each rule and its expression, with the nftables rewrite and an absent() rule on an always-exported series', () => {
    const rules = [
      prometheusRule('monitoring', 'kube-proxy', [
        restoreAlert,
        { alert: 'KubeProxyUp', expr: 'up{job="kube-proxy"} == 0' },
        {
          record: 'kubeproxy:invalid:rate5m',
          expr: 'rate(kubeproxy_iptables_ct_state_invalid_dropped_packets_total[5m])',
        },
      ]),
    ];
    const findings = alertMetricRename.run(ctxOf({ prometheusRules: rules }));
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      check: 'alert-metric-rename',
      severity: 'warn',
      scope: { kind: 'cluster', name: 'cluster-a' },
      subjects: ['monitoring/kube-proxy'],
      title: '2 alert rules in 1 PrometheusRule use metrics nftables mode does not export',
    });
    expect(f?.detail).toContain(
      'monitoring/kube-proxy group kube-proxy, KubeProxyRestoreFailing: `increase(kubeproxy_sync_proxy_rules_iptables_restore_failures_total[5m]) > 0`',
    );
    expect(f?.detail).toContain('record kubeproxy:invalid:rate5m');
    expect(f?.detail).toContain(
      'No nftables counterpart exists for kubeproxy_iptables_ct_state_invalid_dropped_packets_total',
    );
    expect(f?.remedy).toContain('kubeproxy_sync_proxy_rules_nftables_sync_failures_total');
    expect(f?.remedy).toContain('ip_family');
    expect(f?.commands[0]).toContain(
      'expr: (increase(kubeproxy_sync_proxy_rules_iptables_restore_failures_total[5m]) > 0) or (increase(kubeproxy_sync_proxy_rules_nftables_sync_failures_total[5m]) > 0)',
    );
    // The failure counter has no series before its first failure: absent() on it pages forever.
    expect(f?.commands.at(-1)).toContain(
      'absent(kubeproxy_sync_proxy_rules_last_timestamp_seconds) == 1',
    );
    expect(f?.commands.join('\n')).not.toContain(
      'absent(kubeproxy_sync_proxy_rules_nftables_sync_failures_total)',
    );
    expect(f?.remedy).toContain(
      'Do not put absent() on kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
    );
    // Fact-check #18, re-checked: no code that creates the labelled series was found, so the
    // risk is said as a risk, not as a fact.
    expect(f?.remedy).toContain(
      'no kube-proxy code was found that creates it before the first failure',
    );
    expect(f?.remedy).toContain('may page forever on healthy nodes');
    expect(f?.remedy).not.toContain('would page forever');
    // Fact-check #17: from 1.33 (PR #129173) the counters carry ip_family.
    expect(f?.remedy).toContain('kube-proxy 1.33+ labels these counters with ip_family');
  });

  it('says which rules IPVS mode already leaves silent, and that partial restores map loosely', () => {
    const rules = [
      prometheusRule('monitoring', 'kube-proxy', [
        restoreAlert,
        {
          alert: 'KubeProxyPartialRestore',
          expr: 'increase(kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total[5m]) > 0',
        },
      ]),
    ];
    const [f] = alertMetricRename.run(ctxOf({ prometheusRules: rules }));
    expect(f?.detail).toContain(
      'In IPVS mode kube-proxy exports only kubeproxy_sync_proxy_rules_iptables_restore_failures_total of these, so the rules on kubeproxy_sync_proxy_rules_iptables_partial_restore_failures_total are already silent today.',
    );
    expect(f?.detail).toContain('only made kube-proxy fall back to a full sync');
    const [restoreOnly] = alertMetricRename.run(
      ctxOf({ prometheusRules: [prometheusRule('monitoring', 'kube-proxy', [restoreAlert])] }),
    );
    expect(restoreOnly?.detail).not.toContain('already silent');
  });

  it('does not fire on rules that use mode-independent metrics', () => {
    const rules = [
      prometheusRule('monitoring', 'kube-proxy', [
        {
          alert: 'KubeProxySlowSync',
          expr: 'histogram_quantile(0.99, sum by (le) (rate(kubeproxy_sync_proxy_rules_duration_seconds_bucket[5m]))) > 10',
        },
        {
          alert: 'NftFailing',
          expr: 'increase(kubeproxy_sync_proxy_rules_nftables_sync_failures_total[5m]) > 0',
        },
      ]),
    ];
    expect(alertMetricRename.run(ctxOf({ prometheusRules: rules }))).toEqual([]);
    expect(alertMetricRename.run(ctxOf({ prometheusRules: [] }))).toEqual([]);
  });

  it('says alerts could not be checked when the CRD is absent', () => {
    const [f] = alertMetricRename.run(ctxOf());
    expect(f).toMatchObject({ severity: 'info', scope: { kind: 'cluster' } });
    expect(f?.title).toContain('PrometheusRule CRD is not installed');
    expect(f?.commands[0]).toContain('kubeproxy_sync_proxy_rules_iptables_restore_failures_total');
  });

  it('matches whole metric names, histogram series included, and rewrites durations', () => {
    expect(retiredMetricsIn('kubeproxy_sync_proxy_rules_iptables_total{table="nat"}')).toEqual([
      'kubeproxy_sync_proxy_rules_iptables_total',
    ]);
    expect(retiredMetricsIn('kubeproxy_sync_proxy_rules_iptables_total_extra')).toEqual([]);
    expect(rewriteExpr('rate(kubeproxy_sync_full_proxy_rules_duration_seconds_bucket[5m])')).toBe(
      'rate(kubeproxy_sync_proxy_rules_duration_seconds_bucket[5m])',
    );
    expect(rewriteExpr('kubeproxy_sync_proxy_rules_iptables_last')).toBeUndefined();
    expect(rewriteExpr(String(1))).toBe('1');
  });
});
