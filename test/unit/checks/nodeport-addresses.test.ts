import { describe, expect, it } from 'vitest';
import { nodeportAddresses } from '../../../src/checks/nodeport-addresses.js';
import {
  configWith,
  ctxOf,
  ctxWithConfig,
  flagsDaemonSet,
  service,
} from '../../fixtures/checks-b.js';

const services = [
  service('shop', 'web', 'NodePort', 30080),
  service('shop', 'api', 'LoadBalancer', 31443),
  service('shop', 'db', 'ClusterIP'),
];

describe('nodeport-addresses', () => {
  it('warns when nodePortAddresses is unset and NodePort/LoadBalancer Services exist', () => {
    const findings = nodeportAddresses.run(ctxOf({ services }));
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      check: 'nodeport-addresses',
      severity: 'warn',
      scope: { kind: 'cluster', name: 'cluster-a' },
      subjects: ['shop/api', 'shop/web'],
    });
    expect(f?.title).toBe(
      'nodePortAddresses unset: 2 Services (1 NodePort, 1 LoadBalancer) would answer on the primary node IP only in nftables mode',
    );
    expect(f?.detail).toContain('ConfigMap kube-system/kube-proxy key config.conf');
    expect(f?.detail).toContain('PR #123105');
    expect(f?.detail).toContain(
      'nftables mode defaults to "primary", the node\'s first InternalIP (else ExternalIP) per family',
    );
    expect(f?.remedy).toContain('nodePortAddresses: ["0.0.0.0/0", "::/0"]');
    expect(f?.remedy).toContain(
      'in the nftables KubeProxyConfiguration (the config-carryover fragment sets it), then',
    );
    expect(f?.remedy).not.toContain('canary');
    expect(f?.remedy).toContain('"primary" works on kube-proxy 1.33');
    expect(f?.remedy).toContain('PR #138427');
    expect(f?.commands.some((c) => c.includes('nodePortAddresses: ["0.0.0.0/0", "::/0"]'))).toBe(
      true,
    );
  });

  it('treats a missing key and an empty list as unset too', () => {
    const missing = configWith({ 'nodePortAddresses: null\n': '' });
    const empty = configWith({ 'nodePortAddresses: null': 'nodePortAddresses: []' });
    for (const config of [missing, empty]) {
      expect(nodeportAddresses.run(ctxWithConfig(config, { services }))[0]?.severity).toBe('warn');
    }
  });

  it('does not fire when nodePortAddresses is set explicitly', () => {
    const config = configWith({
      'nodePortAddresses: null': 'nodePortAddresses: ["0.0.0.0/0", "::/0"]',
    });
    expect(nodeportAddresses.run(ctxWithConfig(config, { services }))).toEqual([]);
    const primary = configWith({ 'nodePortAddresses: null': 'nodePortAddresses: [primary]' });
    expect(nodeportAddresses.run(ctxWithConfig(primary, { services }))).toEqual([]);
  });

  it('is only informational without NodePort or LoadBalancer Services', () => {
    const [f] = nodeportAddresses.run(ctxOf({ services: [service('shop', 'db', 'ClusterIP')] }));
    expect(f).toMatchObject({ severity: 'info', scope: { kind: 'cluster' } });
    expect(f?.title).toContain('cannot hurt today');
  });

  it('reads --nodeport-addresses when kube-proxy runs on flags', () => {
    const set = ctxOf({
      services,
      kubeSystemDaemonSets: [
        flagsDaemonSet(['--proxy-mode=ipvs', '--nodeport-addresses=10.0.0.0/8']),
      ],
    });
    expect(nodeportAddresses.run(set)).toEqual([]);
    const unset = ctxOf({
      services,
      kubeSystemDaemonSets: [flagsDaemonSet(['--proxy-mode=ipvs'])],
    });
    expect(nodeportAddresses.run(unset)[0]?.detail).toContain(
      'nodePortAddresses is unset in the kube-proxy command line',
    );
  });

  it('warns when the configuration cannot be read, saying why', () => {
    const [f] = nodeportAddresses.run(ctxOf({ services, kubeSystemConfigMaps: [] }));
    expect(f?.severity).toBe('warn');
    expect(f?.title).toContain('nodePortAddresses unknown');
    expect(f?.detail).toContain('ConfigMap kube-system/kube-proxy does not exist');
    // config-carryover shows no fragment without a configuration, so the remedy does not point there.
    expect(f?.remedy).not.toContain('config-carryover');
  });
});
