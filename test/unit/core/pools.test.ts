import { describe, expect, it } from 'vitest';
import { groupByPool, poolOf } from '../../../src/core/pools.js';
import { node } from '../../fixtures/kube.js';

describe('poolOf', () => {
  it('prefers the configured label, then managed-platform labels', () => {
    const n = node({
      name: 'a',
      labels: { 'node-pool': 'blue', 'eks.amazonaws.com/nodegroup': 'ng-1' },
    });
    expect(poolOf(n, 'node-pool')).toBe('blue');
    expect(poolOf(n)).toBe('ng-1');
    expect(poolOf(node({ name: 'b', labels: { 'kubernetes.azure.com/agentpool': 'sys' } }))).toBe(
      'sys',
    );
    expect(
      poolOf(node({ name: 'c', labels: { 'cloud.google.com/gke-nodepool': 'default-pool' } })),
    ).toBe('default-pool');
  });

  it('falls back to control-plane, then OS image and kernel line', () => {
    expect(
      poolOf(node({ name: 'cp', labels: { 'node-role.kubernetes.io/control-plane': '' } })),
    ).toBe('control-plane');
    expect(
      poolOf(node({ name: 'w', kernel: '5.4.0-80-generic', osImage: 'Ubuntu 20.04.6 LTS' })),
    ).toBe('Ubuntu 20.04.6 LTS, kernel 5.4');
  });
});

describe('groupByPool', () => {
  it('groups and sorts pools and their nodes by name', () => {
    const pools = groupByPool(
      [
        node({ name: 'g2', labels: { p: 'green' } }),
        node({ name: 'b1', labels: { p: 'blue' } }),
        node({ name: 'g1', labels: { p: 'green' } }),
      ],
      'p',
    );
    expect(pools.map((p) => [p.name, p.nodes.map((n) => n.metadata.name)])).toEqual([
      ['blue', ['b1']],
      ['green', ['g1', 'g2']],
    ]);
  });
});
