import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { managedPlatform } from '../../../src/checks/managed-platform.js';
import { canaryAllowed } from '../../../src/core/canary-allowed.js';
import { finding, type Finding } from '../../../src/core/findings.js';
import type { detectPlatform } from '../../../src/core/platform.js';
import { snapshotOf } from '../../fixtures/kube.js';
import { scenarioConfigMaps, scenarioDaemonSets, scenarioNodes } from '../../fixtures/scenarios.js';

/** The platform and the managed-platform check's findings, as pre-flight produces them. */
function preflight(scenario: string): {
  platform: ReturnType<typeof detectPlatform>;
  findings: Finding[];
} {
  const snapshot = snapshotOf({
    nodes: scenarioNodes(scenario),
    kubeSystemDaemonSets: scenarioDaemonSets(scenario),
    kubeSystemConfigMaps: scenarioConfigMaps(scenario),
  });
  const ctx = buildCheckContext(snapshot);
  return { platform: ctx.platform, findings: managedPlatform.run(ctx) };
}

describe('canaryAllowed', () => {
  it('refuses the EKS managed add-on with the add-on’s own switch and rehearsal advice', () => {
    const { platform, findings } = preflight('eks-al2-al2023');
    const verdict = canaryAllowed(platform, findings);
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toMatch(
      /^Amazon EKS manages kube-proxy: Amazon EKS: kube-proxy is an add-on/,
    );
    expect(verdict.commands).toContain(
      `aws eks update-addon --cluster-name <eks-cluster-name> --addon-name kube-proxy --configuration-values '{"mode":"nftables"}'`,
    );
    expect(verdict.remedy).toMatch(/throwaway cluster/);
    expect(verdict.remedy).toContain('proxy-migrate twin');
  });

  it('allows self-managed kube-proxy on EKS, warning that the add-on would overwrite the canary', () => {
    const { platform, findings } = preflight('eks-al2-al2023');
    const verdict = canaryAllowed(platform, findings, { eksSelfManagedKubeProxy: true });
    expect(verdict.allowed).toBe(true);
    expect(verdict.warnings).toEqual([
      expect.stringContaining('installing or updating the EKS kube-proxy add-on overwrites'),
    ]);
  });

  it('refuses AKS with az aks update --kube-proxy-config', () => {
    const { platform, findings } = preflight('aks');
    const verdict = canaryAllowed(platform, findings);
    expect(platform.kind).toBe('aks');
    expect(verdict.allowed).toBe(false);
    expect(verdict.commands.join('\n')).toContain(
      'az aks update --resource-group <resource-group> --name <cluster> --kube-proxy-config kube-proxy.json',
    );
  });

  it('refuses GKE and k3s, which have no DaemonSet proxy-migrate may clone', () => {
    const gke = canaryAllowed({ kind: 'gke', name: 'Google GKE', managed: true, evidence: [] }, []);
    expect(gke).toMatchObject({ allowed: false, remedy: expect.stringContaining('Dataplane V2') });
    const { platform, findings } = preflight('k3s');
    expect(platform.kind).toBe('k3s');
    expect(canaryAllowed(platform, findings)).toMatchObject({
      allowed: false,
      commands: [expect.stringContaining('kube-proxy-arg:\n  - proxy-mode=nftables')],
    });
  });

  it('allows kubeadm, unless a cluster-wide block stands', () => {
    const { platform, findings } = preflight('kubeadm-ipvs');
    expect(platform.kind).toBe('kubeadm');
    expect(canaryAllowed(platform, findings)).toEqual({
      allowed: true,
      reason:
        'kube-proxy is a self-managed DaemonSet on kubeadm: proxy-migrate can move it one node at a time.',
      commands: [],
      warnings: [],
    });
    const block = finding({
      check: 'kube-proxy-present',
      severity: 'block',
      scope: { kind: 'cluster', name: 'cluster-a' },
      title: 'No kube-proxy DaemonSet in kube-system',
      remedy: 'Check how kube-proxy runs here.',
    });
    const nodeBlock = { ...block, scope: { kind: 'node', name: 'legacy-1' } } as const;
    expect(canaryAllowed(platform, [nodeBlock]).allowed).toBe(true);
    expect(canaryAllowed(platform, [block])).toMatchObject({
      allowed: false,
      reason: block.title,
      remedy: block.remedy,
    });
  });
});
