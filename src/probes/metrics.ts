/** kube-proxy's Prometheus metrics (facts §7): sync failures, last sync time, sync durations. */
import { parsePrometheusText, type Metrics } from '../core/parse/prometheus.js';
import { curlBody, curlServerFailure, fromParsed, url } from './common.js';
import { isProbeError, probeError, type Probe } from './types.js';

export const metricsProbe: Probe<Metrics> = {
  id: 'metrics',
  describe: 'kube-proxy’s /metrics',
  argv: (ctx) => curlBody(url(ctx.metrics, '/metrics'), 5),
  parse(result) {
    const failure = curlServerFailure(result, 'kube-proxy’s /metrics');
    if (failure !== undefined) return failure;
    const metrics = fromParsed(parsePrometheusText(result.stdout));
    if (isProbeError(metrics)) return metrics;
    const samples = [...metrics.families.values()].reduce((n, f) => n + f.samples.length, 0);
    return samples > 0 ? metrics : probeError('unparsable', '/metrics answered no samples');
  },
};
