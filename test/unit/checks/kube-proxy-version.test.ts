import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { kubeProxyVersion } from '../../../src/checks/kube-proxy-version.js';
import type { KubeDaemonSet } from '../../../src/core/kube.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import { ciliumConfigMap, eksConfigMaps, facts } from '../../fixtures/checks-a.js';
import { eksDaemonSet, kubeadmDaemonSet, node, snapshotOf } from '../../fixtures/kube.js';

function kubeadmAt(image: string, env: { name: string; value: string }[] = []): KubeDaemonSet {
  const ds = kubeadmDaemonSet();
  const container = ds.spec!.template!.spec!.containers[0]!;
  container.image = image;
  if (env.length > 0) container.env = env;
  return ds;
}

const nodes = [
  node({ name: 'new-1' }),
  node({ name: 'legacy-1', kernel: '5.4.0-80-generic', osImage: 'Ubuntu 20.04.6 LTS' }),
];
const run = (over: Partial<ClusterSnapshot>) =>
  kubeProxyVersion.run(buildCheckContext(snapshotOf({ nodes, ...over })));
const SKIP = 'KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK';

describe('kube-proxy-version', () => {
  it('informs on 1.33+ (GA, kernel refused) and reads EKS’s eksbuild tag', () => {
    const [f, ...rest] = run({});
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'kube-proxy-version',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      title: 'kube-proxy v1.33.4: nftables mode is GA and refuses kernels below 5.13',
    });
    expect(f!.detail).toContain('image registry.k8s.io/kube-proxy:v1.33.4');
    const [eks] = run({
      kubeSystemDaemonSets: [eksDaemonSet()],
      kubeSystemConfigMaps: eksConfigMaps(),
    });
    expect(eks!.title).toContain('kube-proxy v1.33.0');
  });

  it('blocks below 1.31', () => {
    const [f] = run({ kubeSystemDaemonSets: [kubeadmAt('registry.k8s.io/kube-proxy:v1.30.14')] });
    expect(f!.severity).toBe('block');
    expect(f!.title).toBe('kube-proxy v1.30.14 is too old for nftables mode (needs 1.31 or later)');
    expect(f!.remedy).toContain('1.33 or later');
    expect(f!.detail).toContain(
      'alpha behind the NFTablesProxyMode feature gate (off by default) in 1.29-1.30 and missing before; it is beta and on by default from 1.31 and GA in 1.33 (KEP-3866)',
    );
  });

  it('warns on 1.31-1.32, whose kernel check is inverted, naming the old-kernel nodes', () => {
    const [f] = run({ kubeSystemDaemonSets: [kubeadmAt('registry.k8s.io/kube-proxy:v1.32.3')] });
    expect(f).toMatchObject({ severity: 'warn', subjects: ['legacy-1'] });
    expect(f!.title).toBe(
      'kube-proxy v1.32.3 does not check the kernel in nftables mode: this pre-flight is the only guard',
    );
    expect(f!.detail).toContain('kubernetes/kubernetes#130401');
    expect(f!.detail).toContain('fixed by kubernetes/kubernetes#130401 in 1.33, no backport found');
    expect(f!.detail).toContain('1 node(s) report a kernel below 5.13: legacy-1.');
    const [withEnv] = run({
      kubeSystemDaemonSets: [
        kubeadmAt('registry.k8s.io/kube-proxy:v1.32.3', [{ name: SKIP, value: '1' }]),
      ],
    });
    expect(withEnv!.detail).toContain('which on this version turns the check on');
    // One paragraph never says both "not refused" and "turns the check on" (fact-check #6, #8).
    expect(withEnv!.detail).not.toContain('is not refused');
    expect(withEnv!.title).toBe(
      `kube-proxy v1.32.3 checks the kernel only because ${SKIP}=1 is set: it turns the check off from 1.33`,
    );
  });

  it('1.33+ info names the IPVS cleanup skipped when modprobe fails (PR #131243)', () => {
    const [f] = run({});
    expect(f!.detail).toContain('`modprobe -va ip_vs` fails');
    expect(f!.detail).toContain('kube-ipvs0');
    expect(f!.detail).toContain('platformCleanup runs first in Options.Run');
  });

  it('warns on 1.33+ when the skip variable turns the kernel check off', () => {
    const [f] = run({
      kubeSystemDaemonSets: [
        kubeadmAt('registry.k8s.io/kube-proxy:v1.34.1', [{ name: SKIP, value: 'true' }]),
      ],
    });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toContain(`runs with ${SKIP}=true: its kernel check is off`);
    expect(f!.commands).toEqual([`kubectl -n kube-system set env ds/kube-proxy ${SKIP}-`]);
  });

  it('ties the nft 1.1.3 crash to the version only when a host runs such an nft', () => {
    const [quiet] = run({ nodeFacts: [facts('new-1', { nftVersion: '1.0.6' })] });
    expect(quiet!.detail).not.toContain('#136786');
    const [old] = run({
      kubeSystemDaemonSets: [kubeadmAt('registry.k8s.io/kube-proxy:v1.32.3')],
      nodeFacts: [facts('new-1', { nftVersion: '1.1.3' })],
    });
    expect(old!.detail).toContain('1 probed node(s) run host nft 1.1.3 or later');
    // Fact-check #23: which images carry the patched nft is not verified, so 1.32 is not said to lack it.
    expect(old!.detail).toContain('kube-proxy 1.32 has no release with PR #137501');
    expect(old!.detail).toContain('no 1.32 image with the patched nft 1.0.6.1');
    expect(old!.detail).not.toContain('neither fix');
    // Fact-check #23: #137501 fixed only the listing crash; syncs need the image's patched nft.
    for (const image of ['v1.33.9', 'v1.36.0']) {
      const [f] = run({
        kubeSystemDaemonSets: [kubeadmAt(`registry.k8s.io/kube-proxy:${image}`)],
        nodeFacts: [facts('new-1', { nftVersion: '1.1.5' })],
      });
      expect(f!.detail).toContain('while listing and while syncing');
      expect(f!.detail).toContain('a release with PR #137501 is not enough');
      expect(f!.detail).toContain('patched nft 1.0.6.1 (kubernetes/kubernetes#140405)');
      expect(f!.detail).not.toContain('includes the fix');
      expect(f!.detail).not.toContain('March 2026');
    }
  });

  it('falls back to the cluster version and says so', () => {
    const ctx = buildCheckContext(
      snapshotOf({
        kubernetesVersion: 'v1.31.2',
        kubeSystemDaemonSets: [kubeadmAt('registry.k8s.io/kube-proxy:latest')],
      }),
    );
    expect(ctx.kubeProxyVersion).toMatchObject({ from: 'cluster', version: { minor: 31 } });
    const [f] = kubeProxyVersion.run(ctx);
    expect(f!.severity).toBe('warn');
    expect(f!.detail).toContain(
      'cluster version v1.31.2, as the kube-proxy image tag of registry.k8s.io/kube-proxy:latest is not a version',
    );
  });

  it('is not applicable when Cilium replaces kube-proxy', () => {
    const [f] = run({ kubeSystemDaemonSets: [], kubeSystemConfigMaps: [ciliumConfigMap('true')] });
    expect(f!.severity).toBe('info');
    expect(f!.title).toBe('Not applicable: Cilium kube-proxy replacement replaces kube-proxy');
  });

  it('reports what it could not determine', () => {
    const [f] = run({
      kubernetesVersion: 'unknown',
      kubeSystemDaemonSets: [kubeadmAt('registry.k8s.io/kube-proxy')],
    });
    expect(f!.severity).toBe('info');
    expect(f!.title).toBe('Could not determine kube-proxy’s version');
  });
});
