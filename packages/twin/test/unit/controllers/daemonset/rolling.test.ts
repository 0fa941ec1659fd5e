import { describe, expect, it } from 'vitest';
import type { NodeSlot } from '../../../../src/controllers/daemonset/plan.js';
import { planManage, planRollingUpdate } from '../../../../src/controllers/daemonset/plan.js';
import type { UpdateStrategy } from '../../../../src/controllers/daemonset/spec.js';
import { rollingLimits, scaledValue } from '../../../../src/controllers/daemonset/spec.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';

const revision = { hash: 'new', generation: '2', minReadySeconds: 0 };
const ctx = { revision, now: Date.parse('2025-08-20T10:00:00Z') };
const eligible = { shouldRun: true, shouldContinueRunning: true };

function pod(name: string, hash: string, ready: boolean, terminating = false): KubeObject {
  const metadata: KubeObject['metadata'] = {
    name,
    creationTimestamp: '2025-08-20T09:00:00Z',
    labels: {
      'controller-revision-hash': hash,
      'pod-template-generation': hash === 'new' ? '2' : '1',
    },
  };
  if (terminating) metadata.deletionTimestamp = '2025-08-20T10:00:30Z';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    status: {
      phase: 'Running',
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          lastTransitionTime: '2025-08-20T09:00:01Z',
        },
      ],
    },
  };
}

function slots(...pods: (KubeObject | undefined)[]): NodeSlot[] {
  return pods.map((p, i) => ({ node: `n${i}`, placement: eligible, pods: p ? [p] : [] }));
}

const names = (list: KubeObject[]): string[] => list.map((p) => p.metadata.name ?? '');

describe('maxUnavailable and maxSurge', () => {
  it('scales percentages up and keeps integers', () => {
    expect(scaledValue(1, 6)).toBe(1);
    expect(scaledValue('10%', 6)).toBe(1);
    expect(scaledValue('50%', 5)).toBe(3);
    expect(scaledValue('0%', 6)).toBe(0);
  });

  it('falls back to one unavailable pod when both limits are zero', () => {
    const strategy: UpdateStrategy = { type: 'RollingUpdate', maxUnavailable: 0, maxSurge: 0 };
    expect(rollingLimits(strategy, 6)).toEqual({ maxSurge: 0, maxUnavailable: 1 });
    expect(rollingLimits({ type: 'RollingUpdate', maxUnavailable: '25%', maxSurge: 0 }, 6)).toEqual(
      {
        maxSurge: 0,
        maxUnavailable: 2,
      },
    );
  });
});

describe('rolling update without surge', () => {
  const limits = { maxSurge: 0, maxUnavailable: 1, desired: 4 };

  it('deletes one old available pod at a time', () => {
    const plan = planRollingUpdate(
      slots(pod('a', 'old', true), pod('b', 'old', true), pod('c', 'old', true)),
      limits,
      ctx,
    );
    expect(names(plan.deletePods)).toEqual(['a']);
    expect(plan.createOn).toEqual([]);
  });

  it('waits while a node is terminating, empty or has an unready new pod', () => {
    const old = pod('b', 'old', true);
    expect(
      planRollingUpdate(slots(pod('a', 'old', true, true), old), limits, ctx).deletePods,
    ).toEqual([]);
    expect(planRollingUpdate(slots(undefined, old), limits, ctx).deletePods).toEqual([]);
    expect(planRollingUpdate(slots(pod('a', 'new', false), old), limits, ctx).deletePods).toEqual(
      [],
    );
    expect(
      names(planRollingUpdate(slots(pod('a', 'new', true), old), limits, ctx).deletePods),
    ).toEqual(['b']);
  });

  it('replaces unavailable old pods whatever the budget', () => {
    const plan = planRollingUpdate(
      slots(pod('a', 'new', false), pod('b', 'old', false), pod('c', 'old', true)),
      limits,
      ctx,
    );
    expect(names(plan.deletePods)).toEqual(['b']);
  });

  it('uses the whole budget when maxUnavailable allows more', () => {
    const plan = planRollingUpdate(
      slots(pod('a', 'old', true), pod('b', 'old', true), pod('c', 'old', true)),
      { ...limits, maxUnavailable: 2 },
      ctx,
    );
    expect(names(plan.deletePods)).toEqual(['a', 'b']);
  });
});

describe('rolling update with surge', () => {
  const limits = { maxSurge: 1, maxUnavailable: 0, desired: 3 };

  it('starts a new pod next to an old one, then deletes the old once the new is available', () => {
    const first = planRollingUpdate(
      slots(pod('a', 'old', true), pod('b', 'old', true)),
      limits,
      ctx,
    );
    expect(first).toEqual({ createOn: ['n0'], deletePods: [] });
    const waiting: NodeSlot[] = [
      { node: 'n0', placement: eligible, pods: [pod('a', 'old', true), pod('a2', 'new', false)] },
      ...slots(undefined, pod('b', 'old', true)).slice(1),
    ];
    expect(planRollingUpdate(waiting, limits, ctx)).toEqual({ createOn: [], deletePods: [] });
    const done: NodeSlot[] = [
      { node: 'n0', placement: eligible, pods: [pod('a', 'old', true), pod('a2', 'new', true)] },
      ...slots(undefined, pod('b', 'old', true)).slice(1),
    ];
    expect(names(planRollingUpdate(done, limits, ctx).deletePods)).toEqual(['a']);
  });
});

describe('manage', () => {
  it('creates on eligible empty nodes and deletes on ineligible ones', () => {
    const plan = planManage(
      [
        { node: 'n0', placement: eligible, pods: [] },
        {
          node: 'n1',
          placement: { shouldRun: false, shouldContinueRunning: false },
          pods: [pod('x', 'old', true)],
        },
        { node: 'n2', placement: eligible, pods: [pod('y', 'old', true, true)] },
      ],
      [pod('stray', 'new', true)],
      false,
      ctx,
    );
    expect(plan.createOn).toEqual(['n0']);
    // n2 only has a terminating pod: the replacement waits until it is gone.
    expect(names(plan.deletePods)).toEqual(['x', 'stray']);
  });
});
