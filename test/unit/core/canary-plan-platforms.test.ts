import { describe, expect, it } from 'vitest';
import type { ActionOf, ClusterAction } from '../../../src/core/actions.js';
import {
  planCanary,
  type CanaryPlan,
  type CanaryPlanInput,
} from '../../../src/core/canary-plan.js';
import type { KubeDaemonSet } from '../../../src/core/kube.js';
import { isUnchanged } from '../../../src/core/plan-unchanged.js';
import { applyAll, runsOn, withLabel } from '../../fixtures/canary.js';
import { scenarioConfigMap, scenarioDaemonSet, scenarioNodes } from '../../fixtures/scenarios.js';

const LABEL = 'proxy-migrate.io/mode';
const NOT_IN = { key: LABEL, operator: 'NotIn', values: ['switching', 'nftables'] };

function planned(input: CanaryPlanInput): CanaryPlan {
  const result = planCanary(input);
  if (!result.ok) throw new Error(result.problem);
  return result.plan;
}

function action<K extends ClusterAction['kind']>(
  plan: CanaryPlan,
  kind: K,
): ActionOf<K> | undefined {
  return plan.shared.find((a): a is ActionOf<K> => a.kind === kind);
}

/**
 * The EKS add-on DaemonSet with a second term, as older EKS manifests and hand-made copies carry
 * (the scenario's has one): nodes matching either term run kube-proxy.
 */
function eksWithTwoTerms(): KubeDaemonSet {
  const ds = scenarioDaemonSet('eks-al2-al2023');
  const required =
    ds.spec!.template!.spec!.affinity!.nodeAffinity!
      .requiredDuringSchedulingIgnoredDuringExecution!;
  required.nodeSelectorTerms.push({
    matchExpressions: [{ key: 'beta.kubernetes.io/os', operator: 'In', values: ['linux'] }],
  });
  return ds;
}

function eksInput(original = eksWithTwoTerms()): CanaryPlanInput {
  return {
    original,
    configMap: scenarioConfigMap('eks-al2-al2023', 'kube-proxy-config'),
    canaryConfigMap: null,
    canaryDaemonSet: null,
    migrationLabel: LABEL,
    oldestKernel: '5.10.238-231.953.amzn2.x86_64',
    nodes: scenarioNodes('eks-al2-al2023').slice(2, 3),
  };
}

describe('planCanary on EKS-style DaemonSets (key config, several nodeSelectorTerms)', () => {
  const input = eksInput();
  const plan = planned(input);

  it('adds the NotIn to every existing term instead of a term of its own (trap)', () => {
    const affinity = action(plan, 'set-node-affinity')!;
    const before = affinity.previous!.nodeSelectorTerms;
    expect(affinity.required?.nodeSelectorTerms).toHaveLength(2);
    affinity.required!.nodeSelectorTerms.forEach((term, i) => {
      expect(term.matchExpressions).toEqual([...(before[i]!.matchExpressions ?? []), NOT_IN]);
    });
  });

  it('excludes a migrating node whichever term it matches', () => {
    const world = applyAll(
      { original: input.original, canaryConfigMap: null, canaryDaemonSet: null },
      plan.shared,
    );
    // Matches only the second term: no kubernetes.io/os label, beta.kubernetes.io/os=linux.
    const base = withLabel(
      withLabel(input.nodes[0]!, 'kubernetes.io/os', null),
      'beta.kubernetes.io/os',
      'linux',
    );
    expect(runsOn(world.original, base)).toBe(true);
    expect(runsOn(world.original, withLabel(base, LABEL, 'switching'))).toBe(false);
    expect(runsOn(world.original, withLabel(base, LABEL, 'nftables'))).toBe(false);
    // A separate NotIn term would have let both through: terms are ORed.
    const wrong = structuredClone(input.original);
    wrong.spec!.template!.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms.push(
      {
        matchExpressions: [NOT_IN],
      },
    );
    expect(runsOn(wrong, withLabel(base, LABEL, 'nftables'))).toBe(true);
  });

  it('leaves a term that has the NotIn already alone', () => {
    const world = applyAll(
      { original: input.original, canaryConfigMap: null, canaryDaemonSet: null },
      plan.shared,
    );
    const again = planned({ ...input, ...world });
    expect(plan.shared.filter((a) => a.kind !== 'label-node').every((a) => !isUnchanged(a))).toBe(
      true,
    );
    expect(again.shared.every(isUnchanged)).toBe(true);
    const affinity = action(again, 'set-node-affinity')!;
    affinity.required!.nodeSelectorTerms.forEach((term, i) => {
      expect(term).toBe(affinity.previous!.nodeSelectorTerms[i]);
    });
  });

  it('swaps only the configuration volume and keeps the original’s other affinity on the canary', () => {
    const ds = action(plan, 'ensure-daemonset')!.desired;
    const volumes = ds.spec?.template?.spec?.volumes ?? [];
    expect(volumes.find((v) => v.name === 'config')?.configMap?.name).toBe('kube-proxy-nftables');
    expect(volumes.find((v) => v.name === 'kubeconfig')?.configMap?.name).toBe('kube-proxy');
    expect(ds.spec?.template?.spec?.affinity).toEqual(
      input.original.spec?.template?.spec?.affinity,
    );
    expect(ds.spec?.template?.spec?.nodeSelector).toEqual({ [LABEL]: 'nftables' });
    // The add-on's own label would make EKS (and detectPlatform) take the copy for the add-on.
    expect(ds.metadata.labels).not.toHaveProperty('eks.amazonaws.com/component');
    expect(Object.keys(action(plan, 'ensure-configmap')!.desired.data)).toEqual(['config']);
  });

  it('strips the NotIn from the canary when the original carries it already', () => {
    const world = applyAll(
      { original: input.original, canaryConfigMap: null, canaryDaemonSet: null },
      plan.shared,
    );
    const again = planned({ ...input, original: world.original });
    const canary = action(again, 'ensure-daemonset')!.desired;
    expect(JSON.stringify(canary.spec?.template?.spec?.affinity)).not.toContain(LABEL);
    expect(runsOn(canary, withLabel(input.nodes[0]!, LABEL, 'nftables'))).toBe(true);
  });

  it('carries EKS’s masqueradeBit into nftables.* and reports the RollingUpdate 10% it replaces', () => {
    expect(plan.changes).toContain('iptables.masqueradeBit → nftables.masqueradeBit: 14');
    expect(action(plan, 'set-update-strategy')!.previous).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: '10%' },
    });
  });
});

describe('planCanary on AKS-style flags (--proxy-mode, no --config)', () => {
  const original = scenarioDaemonSet('aks');
  const plan = planned({
    original,
    canaryConfigMap: null,
    canaryDaemonSet: null,
    migrationLabel: LABEL,
    oldestKernel: '5.15.0-1079-azure',
    nodes: scenarioNodes('aks').slice(0, 1),
  });

  it('rewrites --proxy-mode in place and needs no ConfigMap', () => {
    expect(plan.source).toEqual({ kind: 'flags' });
    expect(plan.shared.map((a) => a.kind)).toEqual([
      'set-update-strategy',
      'set-node-affinity',
      'ensure-daemonset',
    ]);
    const command =
      action(plan, 'ensure-daemonset')!.desired.spec?.template?.spec?.containers[0]?.command ?? [];
    const before = original.spec?.template?.spec?.containers[0]?.command ?? [];
    expect(command.indexOf('--proxy-mode=nftables')).toBe(before.indexOf('--proxy-mode=ipvs'));
    expect(command).not.toContain('--proxy-mode=ipvs');
    expect(command.slice(-2)).toEqual([
      '--nodeport-addresses=0.0.0.0/0,::/0',
      '--conntrack-tcp-be-liberal=true',
    ]);
    expect(command.slice(0, before.length - 1)).toEqual(
      before
        .slice(0, before.length - 1)
        .map((t) => (t === '--proxy-mode=ipvs' ? '--proxy-mode=nftables' : t)),
    );
  });

  it('drops the add-on manager’s label, which would get the copy pruned', () => {
    const ds = action(plan, 'ensure-daemonset')!.desired;
    expect(ds.metadata.labels).toEqual({
      component: 'kube-proxy',
      tier: 'node',
      'app.kubernetes.io/managed-by': 'proxy-migrate',
      'proxy-migrate.io/canary': 'true',
    });
    expect(ds.spec?.selector?.matchLabels).toEqual({
      component: 'kube-proxy',
      tier: 'node',
      'proxy-migrate.io/canary': 'true',
    });
  });

  it('adds the NotIn to AKS’s single term', () => {
    const terms = action(plan, 'set-node-affinity')!.required!.nodeSelectorTerms;
    expect(terms).toHaveLength(1);
    expect(terms[0]!.matchExpressions?.at(-1)).toEqual(NOT_IN);
  });
});
