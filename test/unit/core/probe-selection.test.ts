import { describe, expect, it } from 'vitest';
import type { KubeNode } from '../../../src/core/kube.js';
import {
  FULL_PROBE_MAX_NODES,
  defaultProbeMode,
  selectProbeNodes,
} from '../../../src/core/probe-selection.js';

interface NodeInput {
  kernel?: string;
  kubelet?: string;
  ready?: boolean;
  labels?: Record<string, string>;
}

function node(name: string, input: NodeInput = {}): KubeNode {
  return {
    metadata: { name, labels: { pool: name.split('-')[0] ?? '', ...input.labels } },
    status: {
      conditions: [{ type: 'Ready', status: input.ready === false ? 'False' : 'True' }],
      nodeInfo: {
        kernelVersion: input.kernel ?? '6.8.0-51-generic',
        kubeletVersion: input.kubelet ?? 'v1.33.4',
        osImage: 'Ubuntu 24.04.1 LTS',
        containerRuntimeVersion: 'containerd://1.7.22',
        architecture: 'amd64',
      },
    },
  };
}

const poolOf = (name: string): string => name.split('-')[0] ?? '';
const fleet = (pool: string, count: number): KubeNode[] =>
  Array.from({ length: count }, (_, i) => node(`${pool}-${String(i).padStart(4, '0')}`));

describe('selectProbeNodes', () => {
  it('samples a few nodes per pool, spread over its names, and every node unlike its pool', () => {
    const nodes = [
      ...fleet('a', 100),
      node('a-old', { kernel: '5.4.0-80-generic' }),
      node('a-late', { kubelet: 'v1.32.9' }),
      node('a-down', { ready: false }),
      node('a-moved', { labels: { 'proxy-migrate.io/mode': 'nftables' } }),
      ...fleet('b', 10),
    ];
    const selection = selectProbeNodes(nodes, poolOf, 'sample');
    const a = selection.pools.find((p) => p.pool === 'a');
    expect(a?.total).toBe(104);
    expect(a?.sampled).toEqual(['a-0000', 'a-0050', 'a-0099']);
    expect(a?.outliers.map((o) => o.node)).toEqual(['a-down', 'a-late', 'a-moved', 'a-old']);
    expect(a?.outliers.find((o) => o.node === 'a-old')?.differs).toEqual([
      'kernel 5.4.0-80-generic, pool 6.8.0-51-generic',
    ]);
    expect(a?.outliers.find((o) => o.node === 'a-down')?.differs).toEqual([
      'ready false, pool true',
    ]);
    expect(selection.pools.find((p) => p.pool === 'b')?.sampled).toEqual([
      'b-0000',
      'b-0005',
      'b-0009',
    ]);
    expect(selection.nodes).toEqual(
      [
        'a-0000',
        'a-0050',
        'a-0099',
        'a-down',
        'a-late',
        'a-moved',
        'a-old',
        'b-0000',
        'b-0005',
        'b-0009',
      ].sort(),
    );
  });

  it('probes a whole pool smaller than the sample, and never picks a node twice', () => {
    const selection = selectProbeNodes(
      [node('c-1'), node('c-2', { kernel: '5.15.0-1-generic' })],
      poolOf,
      'sample',
    );
    expect(selection.nodes).toEqual(['c-1', 'c-2']);
  });

  it('probes every node with all and none with none, whatever the pools say', () => {
    const nodes = [...fleet('a', 5), node('a-old', { kernel: '5.4.0-80-generic' })];
    expect(selectProbeNodes(nodes, poolOf, 'all').nodes).toHaveLength(6);
    expect(selectProbeNodes(nodes, poolOf, 'none')).toEqual({ mode: 'none', nodes: [], pools: [] });
  });

  it('defaults to a full probe up to the threshold and to a sample above it', () => {
    expect(defaultProbeMode(FULL_PROBE_MAX_NODES)).toBe('all');
    expect(defaultProbeMode(FULL_PROBE_MAX_NODES + 1)).toBe('sample');
  });
});
