import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { managedPlatform } from '../../../src/checks/managed-platform.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import {
  aksDaemonSet,
  aksNode,
  anetdDaemonSet,
  awsNodeDaemonSet,
  eksConfigMaps,
  eksNode,
  gkeNode,
  k3sNode,
} from '../../fixtures/checks-a.js';
import { eksDaemonSet, node, snapshotOf } from '../../fixtures/kube.js';

const run = (over: Partial<ClusterSnapshot>) =>
  managedPlatform.run(buildCheckContext(snapshotOf(over)));

const eks = (cni: string): Partial<ClusterSnapshot> => ({
  cluster: 'arn:aws:eks:us-west-2:111122223333:cluster/prod',
  kubernetesVersion: 'v1.33.1-eks-1234567',
  nodes: [eksNode('ip-10-0-1-42.us-west-2.compute.internal')],
  kubeSystemDaemonSets: [eksDaemonSet(), awsNodeDaemonSet(cni)],
  kubeSystemConfigMaps: eksConfigMaps(),
});

describe('managed-platform', () => {
  it('is quiet on self-managed clusters', () => {
    expect(run({ nodes: [node({ name: 'n1' })] })).toEqual([]);
    expect(
      run({ nodes: [k3sNode('k1')], kubeSystemDaemonSets: [], kubeSystemConfigMaps: [] }),
    ).toEqual([]);
  });

  it('warns on EKS with the add-on switch and the VPC CNI it reads', () => {
    const [f, ...rest] = run(eks('v1.19.2-eksbuild.1'));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'managed-platform',
      severity: 'warn',
      scope: { kind: 'cluster', name: 'arn:aws:eks:us-west-2:111122223333:cluster/prod' },
      title: 'Amazon EKS: kube-proxy is an add-on, the switch to nftables is cluster-wide',
    });
    expect(f!.detail).toContain('Amazon VPC CNI v1.19.2-eksbuild.1 is below v1.23.0');
    expect(f!.detail).toContain('Cluster v1.33.1-eks-1234567 meets the 1.33 minimum.');
    // Fact-check #43: EKS's requirements, and --resolve-conflicts as the UpdateAddon API gives it.
    expect(f!.detail).toContain(
      'EKS 1.33+, kernel 5.13+ on every node (AL2023 yes, AL2 no), Amazon VPC CNI v1.23.0+',
    );
    expect(f!.detail).toContain('--resolve-conflicts OVERWRITE resets direct edits');
    expect(f!.detail).toContain('PRESERVE keeps them');
    expect(f!.commands).toEqual([
      'aws eks describe-addon --cluster-name prod --addon-name kube-proxy',
      'aws eks describe-addon-configuration --addon-name kube-proxy --addon-version v1.33.0-eksbuild.2 --query configurationSchema --output text',
      `aws eks update-addon --cluster-name prod --addon-name kube-proxy --configuration-values '{"mode":"nftables"}'`,
    ]);
    const [ok] = run(eks('v1.23.1-eksbuild.1'));
    expect(ok!.detail).toContain('Amazon VPC CNI v1.23.1-eksbuild.1 meets the v1.23.0 minimum');
  });

  it('warns on AKS with the preview flag and kube-proxy.json', () => {
    const [f] = run({
      kubernetesVersion: 'v1.32.5',
      nodes: [aksNode('aks-nodepool1-12345678-vmss000000')],
      kubeSystemDaemonSets: [aksDaemonSet()],
      kubeSystemConfigMaps: [],
    });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toContain('Azure AKS');
    expect(f!.detail).toContain('KubeProxyConfigurationPreview');
    expect(f!.detail).toContain('2025-09-02-preview');
    expect(f!.detail).toContain('Cluster v1.32.5 is below the 1.33 minimum');
    // Fact-check #44: AKS's page states no minimum; 1.33 is the upstream GA the preview follows.
    expect(f!.detail).toContain("AKS's page states no minimum version");
    expect(f!.commands).toContain('# kube-proxy.json\n{"enabled": true, "mode": "NFTABLES"}');
    expect(f!.commands).toContain(
      'az aks update --resource-group <resource-group> --name <cluster> --kube-proxy-config kube-proxy.json',
    );
  });

  it('warns on GKE without Dataplane V2 and informs with it', () => {
    const base = { nodes: [gkeNode('gke-a-default-pool-1')], kubeSystemConfigMaps: [] };
    const [legacy] = run({ ...base, kubeSystemDaemonSets: [] });
    expect(legacy!.severity).toBe('warn');
    expect(legacy!.commands[1]).toContain('--enable-dataplane-v2');
    const [dpv2] = run({ ...base, kubeSystemDaemonSets: [anetdDaemonSet()] });
    expect(dpv2!.severity).toBe('info');
    expect(dpv2!.title).toBe('Google GKE with Dataplane V2: no kube-proxy to migrate');
  });
});
