import { describe, expect, it } from 'vitest';
import {
  daemonPlacement,
  matchesNodeAffinity,
  nodeShouldRunDaemonPod,
  podUnfitReason,
} from '../../../../src/controllers/scheduler/fit.js';
import { tolerates, withDaemonTolerations } from '../../../../src/controllers/scheduler/taints.js';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asString } from '../../../../src/apimachinery/types.js';

function node(
  name: string,
  labels: Record<string, string> = {},
  spec: JsonObject = {},
): KubeObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec };
}

function required(...terms: JsonObject[]): JsonObject {
  return {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms },
      },
    },
  };
}

const notNftables = required({
  matchExpressions: [{ key: 'proxy-migrate.io/mode', operator: 'NotIn', values: ['nftables'] }],
});

describe('node affinity', () => {
  it('NotIn matches nodes without the label and rejects labelled ones', () => {
    expect(matchesNodeAffinity(notNftables, node('a'))).toBe(true);
    expect(matchesNodeAffinity(notNftables, node('b', { 'proxy-migrate.io/mode': 'ipvs' }))).toBe(
      true,
    );
    expect(
      matchesNodeAffinity(notNftables, node('c', { 'proxy-migrate.io/mode': 'nftables' })),
    ).toBe(false);
  });

  it('ORs terms and ANDs the requirements inside a term', () => {
    const spec = required(
      {
        matchExpressions: [
          { key: 'pool', operator: 'In', values: ['blue', 'green'] },
          { key: 'gpu', operator: 'DoesNotExist' },
        ],
      },
      { matchExpressions: [{ key: 'special', operator: 'Exists' }] },
    );
    expect(matchesNodeAffinity(spec, node('a', { pool: 'blue' }))).toBe(true);
    expect(matchesNodeAffinity(spec, node('b', { pool: 'blue', gpu: '1' }))).toBe(false);
    expect(matchesNodeAffinity(spec, node('c', { pool: 'red' }))).toBe(false);
    expect(matchesNodeAffinity(spec, node('d', { pool: 'red', special: '' }))).toBe(true);
  });

  it('compares Gt and Lt as integers, and fails them on non-integers', () => {
    const gt = required({
      matchExpressions: [{ key: 'kernel-minor', operator: 'Gt', values: ['9'] }],
    });
    const lt = required({
      matchExpressions: [{ key: 'kernel-minor', operator: 'Lt', values: ['9'] }],
    });
    expect(matchesNodeAffinity(gt, node('a', { 'kernel-minor': '15' }))).toBe(true);
    expect(matchesNodeAffinity(lt, node('a', { 'kernel-minor': '15' }))).toBe(false);
    expect(matchesNodeAffinity(lt, node('b', { 'kernel-minor': '4' }))).toBe(true);
    expect(matchesNodeAffinity(gt, node('c', { 'kernel-minor': 'x' }))).toBe(false);
    expect(matchesNodeAffinity(gt, node('d'))).toBe(false);
  });

  it('matches metadata.name through matchFields, and never matches an empty term', () => {
    const pinned = required({
      matchFields: [{ key: 'metadata.name', operator: 'In', values: ['blue-1'] }],
    });
    expect(matchesNodeAffinity(pinned, node('blue-1'))).toBe(true);
    expect(matchesNodeAffinity(pinned, node('blue-2'))).toBe(false);
    expect(matchesNodeAffinity(required({}), node('blue-1'))).toBe(false);
  });

  it('requires every nodeSelector label as well', () => {
    const spec = { nodeSelector: { 'kubernetes.io/os': 'linux' }, ...notNftables };
    expect(matchesNodeAffinity(spec, node('a', { 'kubernetes.io/os': 'linux' }))).toBe(true);
    expect(matchesNodeAffinity(spec, node('b', { 'kubernetes.io/os': 'windows' }))).toBe(false);
  });
});

describe('taints and tolerations', () => {
  const taint = { key: 'dedicated', value: 'db', effect: 'NoSchedule' };

  it('honours operator, key, value and effect', () => {
    expect(tolerates({ operator: 'Exists' }, taint)).toBe(true);
    expect(tolerates({ key: 'dedicated', operator: 'Equal', value: 'db' }, taint)).toBe(true);
    expect(tolerates({ key: 'dedicated', value: 'web' }, taint)).toBe(false);
    expect(tolerates({ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, taint)).toBe(
      false,
    );
    expect(tolerates({ key: 'other', operator: 'Exists' }, taint)).toBe(false);
  });

  it('adds the DaemonSet tolerations, network-unavailable only for hostNetwork', () => {
    const keys = (spec: JsonObject): string[] =>
      withDaemonTolerations(spec).map((t) => `${asString(t['key'])}:${asString(t['effect'])}`);
    expect(keys({})).toEqual([
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    expect(keys({ hostNetwork: true })).toContain(
      'node.kubernetes.io/network-unavailable:NoSchedule',
    );
  });

  it('replaces a bounded not-ready toleration with the unbounded one', () => {
    const spec = {
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    };
    const out = withDaemonTolerations(spec).filter(
      (t) => t['key'] === 'node.kubernetes.io/not-ready',
    );
    expect(out).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    ]);
  });
});

describe('daemon pod placement', () => {
  const cordoned = node(
    'c',
    {},
    {
      unschedulable: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
    },
  );
  const controlPlane = node(
    'cp',
    {},
    {
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    },
  );
  const evicting = node('e', {}, { taints: [{ key: 'maintenance', effect: 'NoExecute' }] });

  it('still runs daemon pods on a cordoned node, unlike ordinary pods', () => {
    expect(nodeShouldRunDaemonPod({}, cordoned)).toEqual({
      shouldRun: true,
      shouldContinueRunning: true,
    });
    expect(podUnfitReason({}, cordoned)).toBe('unschedulable');
    expect(podUnfitReason({}, node('ok'))).toBeUndefined();
  });

  it('keeps but does not create a pod on an untolerated NoSchedule taint', () => {
    expect(nodeShouldRunDaemonPod({}, controlPlane)).toEqual({
      shouldRun: false,
      shouldContinueRunning: true,
    });
    expect(
      nodeShouldRunDaemonPod({ tolerations: [{ operator: 'Exists' }] }, controlPlane).shouldRun,
    ).toBe(true);
  });

  it('evicts on an untolerated NoExecute taint', () => {
    expect(nodeShouldRunDaemonPod({}, evicting)).toEqual({
      shouldRun: false,
      shouldContinueRunning: false,
    });
  });

  it('stops a pod on a node that no longer matches the affinity', () => {
    const labelled = node('n', { 'proxy-migrate.io/mode': 'nftables' });
    expect(daemonPlacement(notNftables, labelled)).toEqual({
      shouldRun: false,
      shouldContinueRunning: false,
    });
  });
});
