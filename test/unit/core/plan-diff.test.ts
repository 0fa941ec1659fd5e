import { describe, expect, it } from 'vitest';
import {
  planCanary,
  type CanaryPlan,
  type CanaryPlanInput,
} from '../../../src/core/canary-plan.js';
import { planDiffs } from '../../../src/core/plan-diff.js';
import { applyAll } from '../../fixtures/canary.js';
import { scenarioConfigMap, scenarioDaemonSet, scenarioNodes } from '../../fixtures/scenarios.js';

const input: CanaryPlanInput = {
  original: scenarioDaemonSet('kubeadm-ipvs'),
  configMap: scenarioConfigMap('kubeadm-ipvs', 'kube-proxy'),
  canaryConfigMap: null,
  canaryDaemonSet: null,
  migrationLabel: 'proxy-migrate.io/mode',
  oldestKernel: '5.4.0-80-generic',
  nodes: scenarioNodes('kubeadm-ipvs').slice(1, 2),
};

function planned(i: CanaryPlanInput): CanaryPlan {
  const result = planCanary(i);
  if (!result.ok) throw new Error(result.problem);
  return result.plan;
}

const lines = (diff: string, sign: '+' | '-'): string[] =>
  diff.split('\n').filter((l) => l.startsWith(sign) && !l.startsWith(`${sign}${sign}${sign} `));

describe('planDiffs', () => {
  const plan = planned(input);
  const diffs = planDiffs(plan);

  it('gives one unified diff per shared object, in the plan’s order', () => {
    expect(diffs.map((d) => d.title.split(' (')[0])).toEqual([
      'set DaemonSet kube-system/kube-proxy updateStrategy to OnDelete',
      'set DaemonSet kube-system/kube-proxy required node affinity to 1 term',
      'create ConfigMap kube-system/kube-proxy-nftables',
      'create DaemonSet kube-system/kube-proxy-nftables',
    ]);
    for (const d of diffs)
      expect(d.diff).toMatch(
        /^--- kube-system\/kube-proxy \(current\)\n\+\+\+ kube-system\/kube-proxy(-nftables)? \(planned\)\n@@ /,
      );
  });

  it('shows a new canary ConfigMap as its changes from the one kube-proxy reads today', () => {
    const cm = diffs[2]!;
    expect(cm.title).toContain('shown against ConfigMap kube-system/kube-proxy');
    expect(lines(cm.diff, '-')).toEqual(
      expect.arrayContaining([
        '-  name: kube-proxy',
        '-    mode: ipvs',
        '-    ipvs:',
        '-      tcpBeLiberal: false',
      ]),
    );
    expect(lines(cm.diff, '+')).toEqual(
      expect.arrayContaining([
        '+  name: kube-proxy-nftables',
        '+    mode: nftables',
        '+      syncPeriod: 30s',
        '+      tcpBeLiberal: true',
        '+      - 0.0.0.0/0',
        '+      - "::/0"',
      ]),
    );
    // kubeconfig.conf is copied as it is: none of its lines changes.
    expect(cm.diff).not.toContain('server: https://10.0.0.10:6443');
  });

  it('shows a new canary DaemonSet as its changes from the original', () => {
    const ds = diffs[3]!;
    expect(lines(ds.diff, '+')).toEqual(
      expect.arrayContaining([
        '+  name: kube-proxy-nftables',
        '+        proxy-migrate.io/mode: nftables',
        '+            name: kube-proxy-nftables',
        '+      proxy-migrate.io/canary: "true"',
      ]),
    );
    expect(lines(ds.diff, '-')).toEqual(
      expect.arrayContaining(['-  name: kube-proxy', '-            name: kube-proxy']),
    );
    expect(ds.diff).not.toMatch(/^[-+].*(resourceVersion|uid|status|deprecated\.daemonset)/m);
  });

  it('shows the original’s strategy and affinity changes', () => {
    expect(lines(diffs[0]!.diff, '+')).toEqual(['+    type: OnDelete']);
    expect(lines(diffs[1]!.diff, '+')).toContain('+                  - key: proxy-migrate.io/mode');
  });

  it('is empty, and says so, once the cluster is as planned', () => {
    const world = applyAll(
      { original: input.original, canaryConfigMap: null, canaryDaemonSet: null },
      plan.shared,
    );
    const again = planDiffs(planned({ ...input, ...world }));
    expect(again.map((d) => d.diff)).toEqual(['', '', '', '']);
    for (const d of again) expect(d.title).toMatch(/: no change$/);
  });
});
