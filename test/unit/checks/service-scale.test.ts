import { describe, expect, it } from 'vitest';
import { serviceScale } from '../../../src/checks/service-scale.js';
import { clusterIpServices, ctxOf, poolNodes } from '../../fixtures/checks-b.js';

describe('service-scale', () => {
  it('warns above 1,000 Services with the p99 query to compare', () => {
    const [f, ...rest] = serviceScale.run(ctxOf({ services: clusterIpServices(1001) }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'service-scale',
      severity: 'warn',
      scope: { kind: 'cluster', name: 'cluster-a' },
      title: '1,001 Services (> 1,000): scale-test nftables before the roll-out',
    });
    expect(f?.detail).toContain('kubernetes/kubernetes#135639');
    expect(f?.remedy).toContain('kubeproxy_sync_proxy_rules_duration_seconds');
    expect(f?.commands).toContain(
      'histogram_quantile(0.99, sum by (le) (rate(kubeproxy_sync_proxy_rules_duration_seconds_bucket[5m])))',
    );
  });

  it('claims only what #135639 confirms: soft lockups in nft, no version/OS match or 13-minute figure', () => {
    const nodes = poolNodes('al2023', 1, { osImage: 'Amazon Linux 2023.6.20250115' });
    const [f] = serviceScale.run(ctxOf({ nodes, services: clusterIpServices(1500) }));
    expect(f?.detail).toContain('#135639 (opened 2025-12-06) reports kernel soft lockups in nft');
    expect(f?.detail).toContain('#139513');
    expect(f?.detail).toContain("this pre-flight's rule of thumb");
    expect(f?.detail).not.toContain('13 minutes');
    expect(f?.detail).not.toContain('matches the report');
    expect(f?.detail).not.toContain('Bottlerocket');
  });

  it('does not fire at 1,000 Services or fewer', () => {
    expect(serviceScale.run(ctxOf({ services: clusterIpServices(1000) }))).toEqual([]);
    expect(serviceScale.run(ctxOf())).toEqual([]);
  });
});
