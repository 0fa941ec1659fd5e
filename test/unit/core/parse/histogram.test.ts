import { describe, expect, it } from 'vitest';
import {
  histogramBuckets,
  histogramCount,
  histogramQuantile,
} from '../../../../src/core/parse/histogram.js';
import { parsePrometheusText } from '../../../../src/core/parse/prometheus.js';
import { metricsIpvs, metricsNft } from '../../../fixtures/node-outputs.js';

const metrics = (text: string) => {
  const r = parsePrometheusText(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('histogramQuantile', () => {
  // Values checked against PromQL's bucketQuantile by hand.
  const buckets = [
    { le: 0.1, count: 10 },
    { le: 0.5, count: 60 },
    { le: 1, count: 90 },
    { le: Infinity, count: 100 },
  ];

  it('interpolates inside the bucket that holds the rank', () => {
    expect(histogramQuantile(0.5, buckets)).toBeCloseTo(0.1 + 0.4 * (40 / 50));
    expect(histogramQuantile(0.05, buckets)).toBeCloseTo(0.05);
  });

  it('answers the highest finite bound when the rank falls in +Inf', () => {
    expect(histogramQuantile(0.99, buckets)).toBe(1);
  });

  it('is NaN without observations or without +Inf, and ±Inf outside [0, 1]', () => {
    expect(
      histogramQuantile(0.99, [
        { le: 1, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toBeNaN();
    expect(histogramQuantile(0.99, [{ le: 1, count: 5 }])).toBeNaN();
    expect(histogramQuantile(1.5, buckets)).toBe(Infinity);
    expect(histogramQuantile(-1, buckets)).toBe(-Infinity);
  });

  it('repairs non-monotonic counts as PromQL does', () => {
    expect(
      histogramQuantile(0.5, [
        { le: 1, count: 10 },
        { le: 2, count: 8 },
        { le: Infinity, count: 10 },
      ]),
    ).toBe(0.5);
  });
});

describe('histogramBuckets', () => {
  it('sums kube-proxy’s per-family sync histogram by le and gives its p99', () => {
    const m = metrics(metricsNft.stdout);
    const buckets = histogramBuckets(m, 'kubeproxy_sync_proxy_rules_duration_seconds')!;
    expect(buckets).toHaveLength(16);
    expect(buckets.find((b) => b.le === 0.004)?.count).toBe(2);
    expect(histogramCount(m, 'kubeproxy_sync_proxy_rules_duration_seconds')).toBe(2);
    // Both syncs took 3.08 ms: between the 2 ms and 4 ms bounds.
    expect(histogramQuantile(0.99, buckets)).toBeCloseTo(0.002 + 0.002 * 0.99);
  });

  it('is undefined for a family without buckets', () => {
    expect(histogramBuckets(metrics(metricsIpvs.stdout), 'no_such_histogram')).toBeUndefined();
  });
});
