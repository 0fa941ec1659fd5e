import { describe, expect, it } from 'vitest';
import { kernelVersion } from '../../../src/checks/kernel-version.js';
import { kubeadmDaemonSet } from '../../fixtures/kube.js';
import { ctxOf, facts, factsFor, poolNodes } from '../../fixtures/checks-b.js';

const blue = poolNodes('blue', 2);
const legacy = poolNodes('legacy', 2, { kernel: '5.4.0-80-generic' });

describe('kernel-version', () => {
  it('blocks a pool below 5.13, naming the nodes and the playbook command', () => {
    const nodes = [...blue, ...legacy];
    const findings = kernelVersion.run(ctxOf({ nodes, nodeFacts: factsFor(nodes) }));
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      check: 'kernel-version',
      severity: 'block',
      scope: { kind: 'pool', name: 'legacy' },
      subjects: ['legacy-1', 'legacy-2'],
      title: '2 of 2 nodes (legacy-1, legacy-2) on kernel 5.4 (< 5.13)',
    });
    expect(f?.detail).toContain('before it checks the kernel');
    expect(f?.detail).toContain('legacy-1: 5.4.0-80-generic from uname -r');
    // Fact-check #10: the distro kernels named in the remedy.
    expect(f?.remedy).toContain('Ubuntu 22.04 ships 5.15, RHEL 9 5.14, AL2023 6.1');
    expect(f?.remedy).toContain('Upgrade the kernel');
    expect(f?.remedy).toContain('KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK');
    expect(f?.commands).toContain(
      'kubectl get nodes -o custom-columns=NAME:.metadata.name,KERNEL:.status.nodeInfo.kernelVersion | sort -k2',
    );
  });

  it('does not fire when every node runs 5.13 or later, RHEL 9 and COS strings included', () => {
    const nodes = [
      ...blue,
      ...poolNodes('rhel', 1, { kernel: '5.14.0-427.el9.x86_64' }),
      ...poolNodes('cos', 1, { kernel: '6.6.137+' }),
    ];
    expect(kernelVersion.run(ctxOf({ nodes, nodeFacts: factsFor(nodes) }))).toEqual([]);
  });

  it('uses the running kernel: a node rebooted into 5.4 blocks although its Node object says 5.15', () => {
    const nodeFacts = [facts('blue-1'), facts('blue-2', { kernel: '5.4.0-80-generic' })];
    const [f, ...rest] = kernelVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'block', scope: { name: 'blue' }, subjects: ['blue-2'] });
    expect(f?.title).toBe('1 of 2 nodes (blue-2) on kernel 5.4 (< 5.13)');
    expect(f?.detail).toContain('the Node object says 5.15.0-122-generic');
  });

  it('warns when uname -r disagrees with the Node object on a kernel above the floor', () => {
    const nodeFacts = [facts('blue-1'), facts('blue-2', { kernel: '5.15.0-100-generic' })];
    const [f] = kernelVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(f).toMatchObject({ severity: 'warn', subjects: ['blue-2'] });
    expect(f?.title).toBe(
      '1 of 2 nodes (blue-2) run another kernel than their Node object reports',
    );
    expect(f?.detail).toContain('uname -r 5.15.0-100-generic, Node object 5.15.0-122-generic');
    expect(f?.commands).toContain('kubectl debug node/blue-2 -it --image=busybox -- uname -r');
  });

  it('falls back to the Node object and says so when uname -r failed', () => {
    const nodeFacts = [
      facts('blue-1'),
      {
        node: 'blue-2',
        errors: [{ probe: 'uname', code: 'exec-failed', message: 'container not running' }],
      },
    ];
    const [f] = kernelVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(f).toMatchObject({ severity: 'info', subjects: ['blue-2'] });
    expect(f?.title).toContain('uname -r not read on 1 of 2 nodes (blue-2)');
    expect(f?.detail).toContain('uname: exec-failed: container not running');
  });

  it('blocks on the Node object kernel when the node could not be probed', () => {
    const nodes = [...blue, ...legacy];
    const [f] = kernelVersion.run(ctxOf({ nodes, nodeFacts: factsFor(blue) }));
    expect(f).toMatchObject({ severity: 'block', scope: { name: 'legacy' } });
    expect(f?.detail).toContain('from status.nodeInfo.kernelVersion');
    expect(f?.detail).toContain('legacy-2: 5.4.0-80-generic from status.nodeInfo.kernelVersion');
  });

  it('reports unparseable and missing kernel strings instead of passing or crashing', () => {
    const nodes = poolNodes('odd', 2, { kernel: 'unknown' });
    const bare = { ...nodes[1]!, status: {} };
    const [f] = kernelVersion.run(ctxOf({ nodes: [nodes[0]!, bare] }));
    expect(f).toMatchObject({ severity: 'warn', subjects: ['odd-1', 'odd-2'] });
    expect(f?.title).toContain('1 of 2 nodes (odd-1) with an unparseable kernel string');
    expect(f?.title).toContain('could not read the kernel on 1 of 2 nodes (odd-2)');
    expect(f?.remedy).toContain('uname -r');
  });

  it('adds a cluster note when node probes were skipped', () => {
    const findings = kernelVersion.run(ctxOf({ nodes: blue }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
    });
    expect(findings[0]?.title).toContain('node probes were skipped on 2 nodes');
  });

  describe('says what this kube-proxy does on an old kernel, and only that', () => {
    const SKIP = 'KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK';
    const at = (
      image: string,
      env: { name: string; value: string }[] = [],
      kubernetesVersion = 'v1.33.4',
    ) => {
      const ds = kubeadmDaemonSet();
      const container = ds.spec!.template!.spec!.containers[0]!;
      container.image = image;
      if (env.length > 0) container.env = env;
      const [f, ...rest] = kernelVersion.run(
        ctxOf({
          nodes: legacy,
          nodeFacts: factsFor(legacy),
          kubeSystemDaemonSets: [ds],
          kubernetesVersion,
        }),
      );
      expect(rest).toEqual([]);
      // Whatever kube-proxy does, a node below 5.13 blocks its cutover (node-gate relies on it).
      expect(f).toMatchObject({ severity: 'block', subjects: ['legacy-1', 'legacy-2'] });
      return f!;
    };
    const refuses = 'fails with "requires kernel 5.13 or later"';

    it('1.31 and 1.32 without the variable: kube-proxy does not refuse the kernel', () => {
      for (const image of [
        'registry.k8s.io/kube-proxy:v1.31.4',
        'registry.k8s.io/kube-proxy:v1.32.5',
      ]) {
        const f = at(image);
        expect(f.detail).toMatch(/kube-proxy 1\.3[12] does not refuse these kernels/);
        expect(f.detail).toContain('programs nftables on a kernel that mode does not support');
        expect(f.detail).not.toContain(refuses);
        expect(f.detail).not.toContain('crash-loops');
        // No check to come after: the cleanup is not "before it checks the kernel" (fact-check #6).
        expect(f.detail).not.toContain('before it checks the kernel');
        expect(f.detail).toContain('as soon as it starts in nftables mode');
        expect(f.remedy).toContain(
          `setting ${SKIP} is what turns kube-proxy's own kernel check on`,
        );
        expect(f.remedy).not.toContain(`Do not set ${SKIP}`);
      }
    });

    it('1.32 with the variable set: the inverted check is on, so kube-proxy refuses', () => {
      const f = at('registry.k8s.io/kube-proxy:v1.32.5', [{ name: SKIP, value: '1' }]);
      expect(f.detail).toContain(
        `${SKIP}=1, which on this version turns its inverted kernel check on`,
      );
      expect(f.detail).toContain(refuses);
      expect(f.detail).not.toContain('does not refuse');
      expect(f.remedy).toContain('remove it when upgrading to 1.33');
    });

    it('1.33+ without the variable: kube-proxy refuses, after its IPVS cleanup', () => {
      const f = at('registry.k8s.io/kube-proxy:v1.34.2');
      expect(f.detail).toContain('before it checks the kernel');
      expect(f.detail).toContain(`kube-proxy 1.34 then ${refuses}`);
      expect(f.detail).toContain('platformCleanup runs first in Options.Run');
      expect(f.detail).not.toContain('does not refuse');
      expect(f.detail).not.toContain('does not check');
      expect(f.remedy).toContain(
        `Do not set ${SKIP}: from 1.33 it turns kube-proxy's kernel check off`,
      );
    });

    it('1.33+ with the variable set: the check is off', () => {
      const f = at('registry.k8s.io/kube-proxy:v1.33.4', [{ name: SKIP, value: 'true' }]);
      expect(f.detail).toContain('which from 1.33 turns its kernel check off');
      expect(f.detail).not.toContain(refuses);
      expect(f.remedy).toContain(`Remove ${SKIP}`);
    });

    it('an unknown version says it depends, with both meanings of the variable', () => {
      const f = at('registry.k8s.io/kube-proxy:latest', [], 'unknown');
      expect(f.detail).toContain('depends on its version');
      expect(f.remedy).toContain('means opposite things by version');
    });

    it('on every version: the IPVS cleanup is skipped when modprobe fails, leaving kube-ipvs0', () => {
      for (const image of [
        'registry.k8s.io/kube-proxy:v1.31.4',
        'registry.k8s.io/kube-proxy:v1.35.0',
      ]) {
        const f = at(image);
        expect(f.detail).toContain(
          'since PR #131243 it is skipped silently when `modprobe -va ip_vs` fails',
        );
        expect(f.detail).toContain('a degraded node rather than a dark one');
        expect(f.detail).not.toContain('no Service routing at all');
      }
    });
  });
});
