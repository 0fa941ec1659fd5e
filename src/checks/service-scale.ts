/**
 * Guards against an nftables sync cliff at scale: kubernetes/kubernetes#135639 reports kernel soft
 * lockups in nft with nftables mode at scale, #139513 sync time super-linear in the Service count
 * (playbook 000 trap 10; fact-check #42: the figures beyond that are not confirmed).
 */
import { finding } from '../core/findings.js';
import type { Check } from './types.js';

export const SERVICE_SCALE_THRESHOLD = 1000;

export const SYNC_P99_QUERY =
  'histogram_quantile(0.99, sum by (le) (rate(kubeproxy_sync_proxy_rules_duration_seconds_bucket[5m])))';

export const serviceScale: Check = {
  id: 'service-scale',
  title: `Fewer than ${SERVICE_SCALE_THRESHOLD.toLocaleString('en-US')} Services, or a scale test first`,
  run(ctx) {
    const services = ctx.snapshot.services;
    if (services.length <= SERVICE_SCALE_THRESHOLD) return [];
    const headless = services.filter((s) => s.spec?.clusterIP === 'None').length;
    const external = services.filter((s) => s.spec?.type === 'ExternalName').length;
    const count = services.length.toLocaleString('en-US');
    return [
      finding({
        check: serviceScale.id,
        severity: 'warn',
        scope: { kind: 'cluster', name: ctx.snapshot.cluster },
        title: `${count} Services (> ${SERVICE_SCALE_THRESHOLD.toLocaleString('en-US')}): scale-test nftables before the roll-out`,
        detail: `kubernetes/kubernetes#135639 (opened 2025-12-06) reports kernel soft lockups in nft (\`watchdog: BUG: soft lockup ... [nft]\`) with kube-proxy in nftables mode at scale, and #139513 sync times that grow faster than the Service count; the versions, node images and Service counts affected are not settled in those threads. The cluster has ${count} Services (${headless} headless, ${external} ExternalName); the ${SERVICE_SCALE_THRESHOLD.toLocaleString('en-US')}-Service threshold is this pre-flight's rule of thumb, not a figure from those reports. Check the issues against your exact kube-proxy patch version, then measure rather than trust either side.`,
        remedy:
          'Record the p99 of kubeproxy_sync_proxy_rules_duration_seconds on IPVS as the baseline, cut over one canary pool at the same Service count and compare before moving further; hold the canary through a traffic peak.',
        commands: [SYNC_P99_QUERY, 'kubectl get svc -A --no-headers | wc -l'],
      }),
    ];
  },
};
