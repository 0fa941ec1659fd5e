import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { modeFlagIgnored } from '../../../src/checks/mode-flag-ignored.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import { aksDaemonSet } from '../../fixtures/checks-a.js';
import { kubeadmDaemonSet, snapshotOf } from '../../fixtures/kube.js';

const run = (over: Partial<ClusterSnapshot>) =>
  modeFlagIgnored.run(buildCheckContext(snapshotOf(over)));

describe('mode-flag-ignored', () => {
  it('warns that --proxy-mode next to --config does not switch anything', () => {
    const [f, ...rest] = run({
      kubeSystemDaemonSets: [kubeadmDaemonSet(['--proxy-mode=nftables', '--ipvs-scheduler=lc'])],
    });
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'mode-flag-ignored',
      severity: 'warn',
      scope: { kind: 'cluster', name: 'cluster-a' },
      subjects: ['kube-system/kube-proxy'],
    });
    expect(f!.title).toBe(
      '2 kube-proxy flag(s) on DaemonSet kube-system/kube-proxy are ignored because --config is set: --proxy-mode=nftables --ipvs-scheduler=lc',
    );
    expect(f!.detail).toContain('kubernetes/kubernetes#98302');
    expect(f!.detail).toContain(
      '--ipvs-scheduler=lc → ipvs.scheduler, which the config file sets to "rr"',
    );
    expect(f!.detail).toContain(
      '--proxy-mode=nftables does not switch the mode: kube-proxy runs ipvs',
    );
    expect(f!.remedy).toContain('ConfigMap kube-system/kube-proxy (config.conf)');
    expect(f!.commands).toEqual([
      "kubectl -n kube-system get ds kube-proxy -o jsonpath='{.spec.template.spec.containers[0].command}'",
      "kubectl -n kube-system logs ds/kube-proxy | grep -i 'proxier\\|nftables'",
    ]);
  });

  it('catches every config flag kube-proxy knows, not only the mode ones', () => {
    const [f] = run({
      kubeSystemDaemonSets: [
        kubeadmDaemonSet(['--ipvs-sync-period=5s', '--conntrack-max-per-core=0']),
      ],
    });
    expect(f!.title).toBe(
      '2 kube-proxy flag(s) on DaemonSet kube-system/kube-proxy are ignored because --config is set: --ipvs-sync-period=5s --conntrack-max-per-core=0',
    );
    expect(f!.detail).toContain(
      '--ipvs-sync-period=5s → ipvs.syncPeriod, which the config file sets to "30s"',
    );
    expect(f!.detail).toContain(
      '--conntrack-max-per-core=0 → conntrack.maxPerCore, which the config file sets to not set',
    );
    expect(f!.detail).not.toContain('does not switch the mode');
  });

  it('passes kubeadm’s own DaemonSet and a flags-only kube-proxy (flags honoured)', () => {
    expect(run({})).toEqual([]);
    expect(run({ kubeSystemDaemonSets: [aksDaemonSet()], kubeSystemConfigMaps: [] })).toEqual([]);
  });

  it('reports instead of passing when kube-proxy is missing', () => {
    const [f] = run({ kubeSystemDaemonSets: [] });
    expect(f!.severity).toBe('info');
    expect(f!.title).toContain('Could not check for ignored flags');
  });
});
