import { describe, expect, it } from 'vitest';
import {
  labelText,
  parsePrometheusText,
  samplesNamed,
} from '../../../../src/core/parse/prometheus.js';
import { metricsIpvs, metricsNft } from '../../../fixtures/node-outputs.js';

describe('parsePrometheusText', () => {
  it('reads families, types and labelled samples from kube-proxy’s /metrics', () => {
    const result = parsePrometheusText(metricsNft.stdout);
    if (!result.ok) throw new Error(result.error);
    const m = result.value;
    expect(m.families.get('kubeproxy_sync_proxy_rules_duration_seconds')?.type).toBe('histogram');
    expect(samplesNamed(m, 'kubeproxy_sync_proxy_rules_duration_seconds_bucket')).toHaveLength(32);
    expect(samplesNamed(m, 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total')).toEqual([
      {
        name: 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
        labels: { ip_family: 'IPv4' },
        value: 0,
      },
      {
        name: 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
        labels: { ip_family: 'IPv6' },
        value: 0,
      },
    ]);
    expect(samplesNamed(m, 'kubeproxy_sync_proxy_rules_last_timestamp_seconds')[0]?.value).toBe(
      1796118158.45,
    );
    expect(samplesNamed(m, 'kubernetes_build_info')[0]?.labels['git_version']).toBe('v1.34.1');
  });

  it('has no nftables failure counter in IPVS mode', () => {
    const result = parsePrometheusText(metricsIpvs.stdout);
    if (!result.ok) throw new Error(result.error);
    expect(
      samplesNamed(result.value, 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total'),
    ).toEqual([]);
    expect(
      samplesNamed(result.value, 'kubeproxy_sync_proxy_rules_iptables_restore_failures_total'),
    ).toHaveLength(2);
  });

  it('reads pre-1.33 unlabelled series, escapes, special values and timestamps', () => {
    const text = [
      '# TYPE kubeproxy_sync_proxy_rules_nftables_sync_failures_total counter',
      'kubeproxy_sync_proxy_rules_nftables_sync_failures_total 3',
      'x{a="q\\"uote",b="line\\nbreak",} +Inf 1700000000000',
      'y NaN',
      'z -1.5e-3',
      // Go's ParseFloat (Prometheus' parser) reads these in any case; prom-client writes `Nan`.
      'w Nan',
      'v -inf',
    ].join('\n');
    const result = parsePrometheusText(text);
    if (!result.ok) throw new Error(result.error);
    expect(
      samplesNamed(result.value, 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total')[0],
    ).toEqual({
      name: 'kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
      labels: {},
      value: 3,
    });
    expect(samplesNamed(result.value, 'x')[0]).toEqual({
      name: 'x',
      labels: { a: 'q"uote', b: 'line\nbreak' },
      value: Infinity,
    });
    expect(samplesNamed(result.value, 'y')[0]?.value).toBeNaN();
    expect(samplesNamed(result.value, 'z')[0]?.value).toBe(-0.0015);
    expect(samplesNamed(result.value, 'w')[0]?.value).toBeNaN();
    expect(samplesNamed(result.value, 'v')[0]?.value).toBe(-Infinity);
  });

  it('reads an empty body as no families, and refuses broken lines', () => {
    const empty = parsePrometheusText('');
    expect(empty.ok && empty.value.families.size).toBe(0);
    expect(parsePrometheusText('404 page not found')).toEqual({
      ok: false,
      error: 'metrics line 1: cannot parse "404 page not found"',
    });
    expect(parsePrometheusText('x{a="unterminated} 1').ok).toBe(false);
  });

  it('names series the way a verdict shows them', () => {
    expect(labelText({ ip_family: 'IPv4' })).toBe('{ip_family="IPv4"}');
    expect(labelText({})).toBe('');
  });
});
