// The migration's invariants, and the repair each broken one comes with: the drift guard's core.
import { describe, expect, it } from 'vitest';
import { clusterStatus, type StatusInput } from '../../../src/core/cluster-status.js';
import type { KubeDaemonSet, KubeNode, KubePod } from '../../../src/core/kube.js';
import {
  withExclusion,
  requiredAffinity,
  podSpecWithRequired,
} from '../../../src/core/node-affinity.js';
import { scenarioDaemonSet, scenarioNodes } from '../../fixtures/scenarios.js';

const L = 'proxy-migrate.io/mode';

function pod(node: string, owner: string, ready = true): KubePod {
  return {
    metadata: {
      name: `${owner}-${node}`,
      namespace: 'kube-system',
      ownerReferences: [{ kind: 'DaemonSet', name: owner, controller: true }],
    },
    spec: { nodeName: node, containers: [{ name: 'kube-proxy' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

/** The original as a cutover leaves it: OnDelete, and the NotIn on every term. */
function migratedOriginal(): KubeDaemonSet {
  const ds = scenarioDaemonSet('kubeadm-ipvs');
  const spec = ds.spec?.template?.spec;
  if (spec === undefined) throw new Error('no pod spec');
  return {
    ...ds,
    spec: {
      ...ds.spec,
      updateStrategy: { type: 'OnDelete' },
      template: {
        ...ds.spec?.template,
        spec: podSpecWithRequired(spec, withExclusion(requiredAffinity(ds), L)),
      },
    },
  };
}

function input(over: Partial<StatusInput> = {}): StatusInput {
  const nodes: KubeNode[] = scenarioNodes('kubeadm-ipvs').slice(0, 3);
  const [n1, n2, n3] = nodes.map((n) => n.metadata.name) as [string, string, string];
  nodes[0] = {
    ...nodes[0]!,
    metadata: { ...nodes[0]!.metadata, labels: { ...nodes[0]!.metadata.labels, [L]: 'nftables' } },
  };
  return {
    cluster: 'c',
    nodes,
    poolOf: () => 'p',
    pods: [pod(n1, 'kube-proxy-nftables'), pod(n2, 'kube-proxy'), pod(n3, 'kube-proxy')],
    original: migratedOriginal(),
    canary: { metadata: { name: 'kube-proxy-nftables' } },
    label: L,
    modes: new Map([
      [n1, 'nftables'],
      [n2, 'ipvs'],
    ]),
    runs: [],
    lock: undefined,
    resultAnnotation: 'proxy-migrate.io/last-result',
    ...over,
  };
}

describe('clusterStatus', () => {
  it('counts nodes by the mode kube-proxy reports, unknown where it was not read, and finds nothing broken', () => {
    const s = clusterStatus(input());
    expect(s.byMode).toEqual({ nftables: 1, ipvs: 1, unknown: 1 });
    expect(s.nodes.map((n) => n.owners)).toEqual([['canary'], ['original'], ['original']]);
    expect(s.inProgress).toBe(true);
    expect(s.violations).toEqual([]);
  });

  it('flags an original DaemonSet rewritten behind its back (kubeadm upgrade, add-on update)', () => {
    const rewritten = scenarioDaemonSet('kubeadm-ipvs');
    const s = clusterStatus(input({ original: rewritten }));
    expect(s.violations.map((v) => v.invariant).sort()).toEqual([
      'original-affinity',
      'original-strategy',
    ]);
    expect(s.violations.find((v) => v.invariant === 'original-affinity')?.repair).toMatch(
      /NotIn \[switching, nftables\]/,
    );
  });

  it('flags two kube-proxies on a node, and a node with none that no run is moving', () => {
    const base = input();
    const [n1, n2] = base.nodes.map((n) => n.metadata.name);
    const two = clusterStatus({ ...base, pods: [...base.pods, pod(n1!, 'kube-proxy')] });
    expect(two.violations.map((v) => `${v.invariant} ${v.subject}`)).toEqual([
      `two-kube-proxies ${n1!}`,
    ]);
    const none = clusterStatus({ ...base, pods: base.pods.filter((p) => p.spec?.nodeName !== n2) });
    expect(none.violations.map((v) => v.invariant)).toEqual(['no-kube-proxy']);
    expect(none.violations[0]?.repair).toMatch(/proxy-migrate rollback c /);
  });

  it('checks nothing about the original while no migration is in progress', () => {
    const nodes = scenarioNodes('kubeadm-ipvs').slice(0, 2);
    const s = clusterStatus(
      input({
        nodes,
        canary: undefined,
        original: scenarioDaemonSet('kubeadm-ipvs'),
        pods: nodes.map((n) => pod(n.metadata.name, 'kube-proxy')),
      }),
    );
    expect(s.inProgress).toBe(false);
    expect(s.violations).toEqual([]);
  });

  it('counts the canary ConfigMap and the original’s NotIn term as a migration in progress, OnDelete alone not', () => {
    const nodes = scenarioNodes('kubeadm-ipvs').slice(0, 2);
    const plain = {
      nodes,
      canary: undefined,
      pods: nodes.map((n) => pod(n.metadata.name, 'kube-proxy')),
    };
    // A cutover stopped after creating the ConfigMap: the original's invariants are checked.
    const configMapOnly = clusterStatus(
      input({ ...plain, original: scenarioDaemonSet('kubeadm-ipvs'), canaryConfigMap: true }),
    );
    expect(configMapOnly.inProgress).toBe(true);
    expect(configMapOnly.violations.map((v) => v.invariant).sort()).toEqual([
      'original-affinity',
      'original-strategy',
    ]);
    // Canary objects deleted by hand, the NotIn term left: the strategy must still be OnDelete.
    const notIn = migratedOriginal();
    const rolling = {
      ...notIn,
      spec: { ...notIn.spec, updateStrategy: { type: 'RollingUpdate' } },
    };
    const notInOnly = clusterStatus(input({ ...plain, original: rolling }));
    expect(notInOnly.inProgress).toBe(true);
    expect(notInOnly.violations.map((v) => v.invariant)).toEqual(['original-strategy']);
    // Some installers ship OnDelete: that alone is no migration.
    const onDelete = scenarioDaemonSet('kubeadm-ipvs');
    const shipped = {
      ...onDelete,
      spec: { ...onDelete.spec, updateStrategy: { type: 'OnDelete' } },
    };
    expect(clusterStatus(input({ ...plain, original: shipped })).inProgress).toBe(false);
  });
});
