import { describe, expect, it } from 'vitest';
import {
  planCanary,
  type CanaryPlan,
  type CanaryPlanInput,
} from '../../../src/core/canary-plan.js';
import { planBasis, planHash } from '../../../src/core/plan-hash.js';
import { withLabel } from '../../fixtures/canary.js';
import { scenarioConfigMap, scenarioDaemonSet, scenarioNodes } from '../../fixtures/scenarios.js';

function input(over: Partial<CanaryPlanInput> = {}): CanaryPlanInput {
  return {
    original: scenarioDaemonSet('kubeadm-ipvs'),
    configMap: scenarioConfigMap('kubeadm-ipvs', 'kube-proxy'),
    canaryConfigMap: null,
    canaryDaemonSet: null,
    migrationLabel: 'proxy-migrate.io/mode',
    oldestKernel: '5.4.0-80-generic',
    nodes: scenarioNodes('kubeadm-ipvs').slice(1, 2),
    ...over,
  };
}

function hashOf(i: CanaryPlanInput): string {
  const result = planCanary(i);
  if (!result.ok) throw new Error(result.problem);
  return planHash(result.plan, planBasis(i));
}

describe('planHash', () => {
  it('is seven hex digits, the same for the same objects read twice', () => {
    const hash = hashOf(input());
    expect(hash).toMatch(/^[0-9a-f]{7}$/);
    expect(hashOf(input())).toBe(hash);
  });

  it('does not depend on the order keys were served in', () => {
    const shuffled = input();
    const meta = shuffled.original.metadata;
    shuffled.original = {
      spec: shuffled.original.spec!,
      metadata: Object.fromEntries(Object.entries(meta).reverse()) as typeof meta,
    };
    expect(hashOf(shuffled)).toBe(hashOf(input()));
  });

  it('changes when the DaemonSet’s spec changes (its generation), even with nothing else', () => {
    const ds = scenarioDaemonSet('kubeadm-ipvs');
    const edited = {
      ...ds,
      metadata: { ...ds.metadata, generation: (ds.metadata.generation ?? 1) + 1 },
    };
    expect(hashOf(input({ original: edited }))).not.toBe(hashOf(input()));
  });

  it('ignores the DaemonSet’s resourceVersion, which moves with every status write', () => {
    expect(
      hashOf(input({ original: scenarioDaemonSet('kubeadm-ipvs', 'kube-proxy', '1002') })),
    ).toBe(hashOf(input()));
  });

  it('changes when the ConfigMap, a canary object or a node’s label changes', () => {
    const base = hashOf(input());
    expect(
      hashOf(input({ configMap: scenarioConfigMap('kubeadm-ipvs', 'kube-proxy', '2002') })),
    ).not.toBe(base);
    const node = scenarioNodes('kubeadm-ipvs')[1]!;
    expect(
      hashOf(input({ nodes: [withLabel(node, 'proxy-migrate.io/mode', 'switching')] })),
    ).not.toBe(base);
    expect(hashOf(input({ oldestKernel: '6.8.0-51-generic' }))).not.toBe(base);
  });

  it('ignores a node’s resourceVersion, which moves with every status report', () => {
    const node = scenarioNodes('kubeadm-ipvs')[1]!;
    const moved = { ...node, metadata: { ...node.metadata, resourceVersion: '999999' } };
    expect(hashOf(input({ nodes: [moved] }))).toBe(hashOf(input()));
  });

  it('covers the planned objects, not only the basis', () => {
    const i = input();
    const result = planCanary(i);
    if (!result.ok) throw new Error(result.problem);
    const plan: CanaryPlan = structuredClone(result.plan);
    const cm = plan.shared.find((a) => a.kind === 'ensure-configmap');
    if (cm?.kind === 'ensure-configmap') cm.desired.data['config.conf'] += '\n# edited';
    expect(planHash(plan, planBasis(i))).not.toBe(planHash(result.plan, planBasis(i)));
  });
});
