// Bucket bounds kube-proxy's sync histograms declare (pkg/proxy/metrics/metrics.go).

/** SyncProxyRulesLatency and friends: metrics.ExponentialBuckets(0.001, 2, 15). */
export const syncBuckets: readonly number[] = Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i);
