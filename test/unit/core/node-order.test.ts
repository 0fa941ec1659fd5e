import { describe, expect, it } from 'vitest';
import type { KubeNode } from '../../../src/core/kube.js';
import { suggestOrder } from '../../../src/core/node-order.js';
import { groupByPool } from '../../../src/core/pools.js';
import { scenarioNodes } from '../../fixtures/scenarios.js';

const nodes = scenarioNodes('kubeadm-ipvs');
const pools = groupByPool(nodes, 'node-pool');
const blocked = new Map([['legacy-1', ['kernel 5.4.0-80-generic is below nftables mode’s 5.13']]]);

function notReady(node: KubeNode): KubeNode {
  const conditions = (node.status?.conditions ?? []).map((c) =>
    c.type === 'Ready' ? { ...c, status: 'False' } : c,
  );
  return { ...node, status: { ...node.status, conditions } };
}

describe('suggestOrder', () => {
  it('takes one canary per pool, the control plane’s last, then the rest, blocked nodes marked at the end', () => {
    expect(suggestOrder(nodes, pools, blocked)).toEqual([
      { node: 'blue-1', pool: 'blue', step: 'canary', blockedBy: [] },
      { node: 'green-1', pool: 'green', step: 'canary', blockedBy: [] },
      { node: 'cp-1', pool: 'control-plane', step: 'canary', blockedBy: [] },
      { node: 'blue-2', pool: 'blue', step: 'pool', blockedBy: [] },
      { node: 'green-2', pool: 'green', step: 'pool', blockedBy: [] },
      {
        node: 'legacy-1',
        pool: 'legacy',
        step: 'blocked',
        blockedBy: ['kernel 5.4.0-80-generic is below nftables mode’s 5.13'],
      },
    ]);
  });

  it('gives a pool’s canary to a Ready, schedulable node', () => {
    const withSick = nodes.map((n) => (n.metadata.name === 'blue-1' ? notReady(n) : n));
    const order = suggestOrder(withSick, groupByPool(withSick, 'node-pool'), new Map());
    expect(order.filter((o) => o.pool === 'blue').map((o) => [o.node, o.step])).toEqual([
      ['blue-2', 'canary'],
      ['blue-1', 'pool'],
    ]);
    expect(order.filter((o) => o.step === 'canary').map((o) => o.node)).toEqual([
      'blue-2',
      'green-1',
      'legacy-1',
      'cp-1',
    ]);
  });

  it('orders only the nodes asked about', () => {
    const some = nodes.filter((n) => n.metadata.name.startsWith('green'));
    expect(suggestOrder(some, pools, new Map()).map((o) => o.node)).toEqual(['green-1', 'green-2']);
  });
});
