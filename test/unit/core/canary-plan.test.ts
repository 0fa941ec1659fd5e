import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { invert, type ActionOf, type ClusterAction } from '../../../src/core/actions.js';
import {
  planCanary,
  type CanaryPlan,
  type CanaryPlanInput,
} from '../../../src/core/canary-plan.js';
import type { KubeDaemonSet } from '../../../src/core/kube.js';
import { isUnchanged } from '../../../src/core/plan-unchanged.js';
import { applyAll, runsOn, selects, withLabel, type World } from '../../fixtures/canary.js';
import { scenarioConfigMap, scenarioDaemonSet, scenarioNodes } from '../../fixtures/scenarios.js';

const LABEL = 'proxy-migrate.io/mode';

function kubeadmInput(over: Partial<CanaryPlanInput> = {}): CanaryPlanInput {
  return {
    original: scenarioDaemonSet('kubeadm-ipvs'),
    configMap: scenarioConfigMap('kubeadm-ipvs', 'kube-proxy'),
    canaryConfigMap: null,
    canaryDaemonSet: null,
    migrationLabel: LABEL,
    oldestKernel: '5.4.0-80-generic',
    nodes: scenarioNodes('kubeadm-ipvs').filter((n) => n.metadata.name === 'blue-1'),
    ...over,
  };
}

function planned(input: CanaryPlanInput): CanaryPlan {
  const result = planCanary(input);
  if (!result.ok) throw new Error(result.problem);
  return result.plan;
}

function action<K extends ClusterAction['kind']>(plan: CanaryPlan, kind: K): ActionOf<K> {
  const found = plan.shared.find((a): a is ActionOf<K> => a.kind === kind);
  if (found === undefined) throw new Error(`no ${kind}`);
  return found;
}

const templateOf = (ds: KubeDaemonSet): string => JSON.stringify(ds.spec?.template);

describe('planCanary on kubeadm (config file in ConfigMap kube-proxy)', () => {
  const plan = planned(kubeadmInput());

  it('puts the original on OnDelete first, recording the strategy it replaces', () => {
    expect(plan.shared.map((a) => a.kind)).toEqual([
      'set-update-strategy',
      'set-node-affinity',
      'ensure-configmap',
      'ensure-daemonset',
    ]);
    expect(action(plan, 'set-update-strategy')).toEqual({
      kind: 'set-update-strategy',
      ref: { namespace: 'kube-system', name: 'kube-proxy' },
      strategy: { type: 'OnDelete' },
      previous: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      basedOn: '1001',
    });
    expect(plan.originalStrategy).toEqual(action(plan, 'set-update-strategy').previous);
  });

  it('never changes the original’s pod template while it is still RollingUpdate (trap)', () => {
    // Under RollingUpdate the NotIn term would restart kube-proxy on every node at once.
    let world: World = {
      original: kubeadmInput().original,
      canaryConfigMap: null,
      canaryDaemonSet: null,
    };
    const template = templateOf(world.original);
    for (const a of plan.shared) {
      world = applyAll(world, [a]);
      if (templateOf(world.original) !== template) {
        expect(world.original.spec?.updateStrategy?.type).toBe('OnDelete');
      }
    }
    expect(templateOf(world.original)).not.toBe(template);
  });

  it('adds the NotIn as one new term when the original has no node affinity', () => {
    expect(action(plan, 'set-node-affinity')).toMatchObject({
      previous: null,
      required: {
        nodeSelectorTerms: [
          {
            matchExpressions: [
              { key: LABEL, operator: 'NotIn', values: ['switching', 'nftables'] },
            ],
          },
        ],
      },
      basedOn: '1001',
    });
  });

  it('copies the ConfigMap with config.conf rewritten and kubeconfig.conf as it is', () => {
    const cm = action(plan, 'ensure-configmap');
    const source = kubeadmInput().configMap!.data!;
    expect(cm.ref).toEqual({ namespace: 'kube-system', name: 'kube-proxy-nftables' });
    expect(cm.previous).toBeNull();
    expect(Object.keys(cm.desired.data)).toEqual(['config.conf', 'kubeconfig.conf']);
    expect(cm.desired.data['kubeconfig.conf']).toBe(source['kubeconfig.conf']);
    expect(cm.desired.labels).toEqual({
      'app.kubernetes.io/managed-by': 'proxy-migrate',
      'proxy-migrate.io/canary': 'true',
    });
    const config = parse(cm.desired.data['config.conf']!, { version: '1.1' }) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({
      mode: 'nftables',
      nodePortAddresses: ['0.0.0.0/0', '::/0'],
      nftables: { masqueradeAll: false, syncPeriod: '30s' },
      conntrack: { tcpBeLiberal: true },
      clusterCIDR: '10.244.0.0/16',
      logging: { options: { json: { infoBufferSize: '0' } } },
    });
    expect(config).not.toHaveProperty('ipvs');
  });

  it('clones the DaemonSet onto the canary ConfigMap, for nodes labelled nftables only', () => {
    const ds = action(plan, 'ensure-daemonset');
    expect(ds.previous).toBeNull();
    expect(ds.desired.metadata).toEqual({
      name: 'kube-proxy-nftables',
      namespace: 'kube-system',
      labels: {
        'k8s-app': 'kube-proxy',
        'app.kubernetes.io/managed-by': 'proxy-migrate',
        'proxy-migrate.io/canary': 'true',
      },
      annotations: {
        'proxy-migrate.io/original-update-strategy':
          '{"type":"RollingUpdate","rollingUpdate":{"maxSurge":0,"maxUnavailable":1}}',
      },
    });
    expect(ds.desired).not.toHaveProperty('status');
    const spec = ds.desired.spec!;
    expect(spec.selector).toEqual({
      matchLabels: { 'k8s-app': 'kube-proxy', 'proxy-migrate.io/canary': 'true' },
    });
    expect(spec.template?.metadata?.labels).toEqual(spec.selector?.matchLabels);
    expect(spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1 },
    });
    expect(spec.template?.spec?.nodeSelector).toEqual({
      'kubernetes.io/os': 'linux',
      [LABEL]: 'nftables',
    });
    expect(spec.template?.spec?.affinity).toBeUndefined();
    expect(spec.template?.spec?.volumes?.[0]).toEqual({
      configMap: { defaultMode: 420, name: 'kube-proxy-nftables' },
      name: 'kube-proxy',
    });
    expect(spec.template?.spec?.containers[0]?.command).toEqual(
      kubeadmInput().original.spec?.template?.spec?.containers[0]?.command,
    );
  });

  it('leaves every server-set and object-level field of the original off the clone', () => {
    const original = kubeadmInput().original;
    const served = {
      ...original,
      metadata: {
        ...original.metadata,
        managedFields: [{ manager: 'kubeadm', operation: 'Update' }],
        annotations: {
          ...original.metadata.annotations,
          'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"DaemonSet"}',
          'meta.helm.sh/release-name': 'kube-proxy',
          'team.example.com/owner': 'platform',
        },
      },
    } as KubeDaemonSet;
    const ds = action(planned(kubeadmInput({ original: served })), 'ensure-daemonset').desired;
    expect(Object.keys(ds.metadata).sort()).toEqual(['annotations', 'labels', 'name', 'namespace']);
    expect(Object.keys(ds.metadata.annotations ?? {}).sort()).toEqual([
      'proxy-migrate.io/original-update-strategy',
      'team.example.com/owner',
    ]);
  });

  it('keeps the two DaemonSets from claiming each other’s pods', () => {
    const canary = action(plan, 'ensure-daemonset').desired;
    const original = kubeadmInput().original;
    expect(selects(canary, original.spec?.template?.metadata?.labels)).toBe(false);
    expect(selects(canary, canary.spec?.template?.metadata?.labels)).toBe(true);
  });

  it('moves a node through switching both ways, the rollback being the journal inverted', () => {
    const [steps] = plan.nodes;
    const label = (value: string, previous: string | null) => ({
      kind: 'label-node',
      node: 'blue-1',
      key: LABEL,
      value,
      previous,
    });
    expect(steps).toEqual({
      node: 'blue-1',
      mode: 'original',
      cutover: [label('switching', null), label('nftables', 'switching')],
      rollback: [
        label('switching', 'nftables'),
        { kind: 'unlabel-node', node: 'blue-1', key: LABEL, previous: 'switching' },
      ],
    });
    expect([...steps!.cutover].reverse().map(invert)).toEqual(steps!.rollback);
  });

  it('never runs two kube-proxies on a node, and never none except while switching', () => {
    const world = applyAll(
      { original: kubeadmInput().original, canaryConfigMap: null, canaryDaemonSet: null },
      plan.shared,
    );
    const node = kubeadmInput().nodes[0]!;
    for (const value of [null, 'switching', 'nftables', 'switching', null]) {
      const n = withLabel(node, LABEL, value);
      const running = [world.original, world.canaryDaemonSet!].filter((ds) => runsOn(ds, n));
      expect(running.length).toBe(value === 'switching' ? 0 : 1);
      if (value === 'nftables') expect(running[0]?.metadata.name).toBe('kube-proxy-nftables');
    }
  });

  it('says what it changes and what cannot be carried', () => {
    expect(plan.changes).toEqual(
      expect.arrayContaining([
        'mode: ipvs → nftables',
        'ipvs.syncPeriod → nftables.syncPeriod: 30s',
        expect.stringMatching(/^conntrack\.tcpBeLiberal: true \(added in place of false/),
      ]),
    );
    expect(plan.dropped.map((d) => d.split(':')[0])).toEqual(['ipvs.scheduler', 'ipvs.strictARP']);
  });
});

describe('planCanary refuses what it cannot plan', () => {
  it('names the problem instead of guessing', () => {
    const cm = kubeadmInput().configMap!;
    const nft = {
      ...cm,
      data: {
        ...cm.data,
        'config.conf': cm.data!['config.conf']!.replace('mode: ipvs', 'mode: nftables'),
      },
    };
    expect(planCanary(kubeadmInput({ configMap: nft }))).toEqual({
      ok: false,
      problem: 'DaemonSet kube-system/kube-proxy runs nftables mode already',
    });
    const { configMap: _none, ...withoutConfigMap } = kubeadmInput();
    expect(planCanary(withoutConfigMap)).toEqual({
      ok: false,
      problem: 'DaemonSet kube-system/kube-proxy reads ConfigMap kube-proxy, not given',
    });
    const broken = { ...cm, data: { 'kubeconfig.conf': '' } };
    expect(planCanary(kubeadmInput({ configMap: broken }))).toEqual({
      ok: false,
      problem: 'ConfigMap kube-system/kube-proxy has no key config.conf',
    });
  });
});

describe('planCanary against the objects it planned', () => {
  it('plans nothing new: every shared action is unchanged, the strategy to hand back kept', () => {
    const input = kubeadmInput();
    const first = planned(input);
    const world = applyAll(
      { original: input.original, canaryConfigMap: null, canaryDaemonSet: null },
      first.shared,
    );
    const second = planned({ ...input, ...world });
    expect(second.shared.map((a) => [a.kind, isUnchanged(a)])).toEqual(
      first.shared.map((a) => [a.kind, true]),
    );
    expect(first.shared.map((a) => isUnchanged(a))).toEqual([false, false, false, false]);
    expect(action(second, 'set-node-affinity').required).toEqual(
      action(first, 'set-node-affinity').required,
    );
    expect(action(second, 'ensure-daemonset').desired).toEqual(
      action(first, 'ensure-daemonset').desired,
    );
    expect(action(second, 'ensure-configmap').desired).toEqual(
      action(first, 'ensure-configmap').desired,
    );
    expect(second.originalStrategy).toEqual(first.originalStrategy);
    expect(second.originalStrategy.type).toBe('RollingUpdate');
  });
});
