/**
 * Guards against an nftables sync cliff at scale: kubernetes/kubernetes#135639 reports minutes-long
 * syncs and soft lockups at 1000+ Services (playbook 000 trap 10).
 */
import { finding } from '../core/findings.js';
import { majorMinor } from '../core/parse/version.js';
import type { Check } from './types.js';

export const SERVICE_SCALE_THRESHOLD = 1000;

export const SYNC_P99_QUERY =
  'histogram_quantile(0.99, sum by (le) (rate(kubeproxy_sync_proxy_rules_duration_seconds_bucket[5m])))';

const REPORTED_OS = /amazon linux|bottlerocket/i;

export const serviceScale: Check = {
  id: 'service-scale',
  title: `Fewer than ${SERVICE_SCALE_THRESHOLD.toLocaleString('en-US')} Services, or a scale test first`,
  run(ctx) {
    const services = ctx.snapshot.services;
    if (services.length <= SERVICE_SCALE_THRESHOLD) return [];
    const headless = services.filter((s) => s.spec?.clusterIP === 'None').length;
    const external = services.filter((s) => s.spec?.type === 'ExternalName').length;
    const version = ctx.kubeProxyVersion?.version;
    const reportedVersion =
      version !== undefined && version.major === 1 && version.minor >= 32 && version.minor <= 34;
    const reportedOs = [
      ...new Set(
        ctx.snapshot.nodes
          .map((n) => n.status?.nodeInfo?.osImage ?? '')
          .filter((os) => REPORTED_OS.test(os)),
      ),
    ];
    const match =
      reportedVersion && reportedOs.length > 0
        ? ` This cluster matches the report: kube-proxy ${majorMinor(version)} on ${reportedOs.join(', ')}.`
        : '';
    const count = services.length.toLocaleString('en-US');
    return [
      finding({
        check: serviceScale.id,
        severity: 'warn',
        scope: { kind: 'cluster', name: ctx.snapshot.cluster },
        title: `${count} Services (> ${SERVICE_SCALE_THRESHOLD.toLocaleString('en-US')}): scale-test nftables before the roll-out`,
        detail: `kubernetes/kubernetes#135639 (opened 2025-12-06, 1.32 to 1.34 on Amazon Linux 2, AL2023 and Bottlerocket) reports nftables sync times of 13 minutes and kernel soft lockups at 1000+ Services.${match} The cluster has ${count} Services (${headless} headless, ${external} ExternalName). Check that issue against your exact patch version, then measure rather than trust either side.`,
        remedy:
          'Record the p99 of kubeproxy_sync_proxy_rules_duration_seconds on IPVS as the baseline, cut over one canary pool at the same Service count and compare before moving further; hold the canary through a traffic peak.',
        commands: [SYNC_P99_QUERY, 'kubectl get svc -A --no-headers | wc -l'],
      }),
    ];
  },
};
