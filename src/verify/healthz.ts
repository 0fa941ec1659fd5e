/**
 * kube-proxy's /healthz must be 200 (facts §7). A 503 with `nodeEligible: false` means the node is
 * being deleted or drained by the cluster autoscaler, not that kube-proxy is unhealthy: then the
 * proxier's own health decides (`healthy` in newer bodies, else /livez, which ignores the node).
 */
import type { ProxyHealth } from '../core/parse/healthz.js';
import { valueOf } from '../probes/read.js';
import { evidence, readable } from './evidence.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reads'>;

function ownHealth(
  health: ProxyHealth,
  livez: ProxyHealth | undefined,
): { healthy?: boolean; source: string } {
  if (health.healthy !== undefined)
    return { healthy: health.healthy, source: `"healthy": ${health.healthy}` };
  if (livez !== undefined)
    return { healthy: livez.statusCode === 200, source: `/livez ${livez.statusCode}` };
  return { source: '/livez was not read' };
}

export const healthzVerification: Verification<Input> = {
  id: 'healthz',
  title: 'kube-proxy /healthz healthy',
  verify(input) {
    const got = readable(input, 'healthz', input.reads.healthz, 'kube-proxy’s /healthz');
    if (!got.ok) return [got.evidence];
    const { read, value: health } = got;
    const say = (ok: boolean, verdict: string) => [evidence(input, 'healthz', read, ok, verdict)];
    if (health.statusCode === 200) return say(true, 'expected /healthz 200; got 200');
    if (health.statusCode !== 503)
      return say(false, `expected /healthz 200; got ${health.statusCode}`);
    if (health.nodeEligible !== false)
      return say(
        false,
        'expected /healthz 200; got 503: an update has been queued longer than 2 × syncPeriod, so kube-proxy is not syncing its rules',
      );
    const own = ownHealth(health, valueOf(input.reads.livez));
    const why =
      '/healthz 503 because the node is being deleted or removed by the cluster autoscaler (nodeEligible false), which is not a kube-proxy fault';
    if (own.healthy === true)
      return say(true, `${why}; kube-proxy itself is healthy (${own.source})`);
    if (own.healthy === false)
      return say(false, `${why}, and kube-proxy itself is unhealthy too (${own.source})`);
    return say(false, `${why}; kube-proxy's own health is unknown (${own.source})`);
  },
};
