// A node may be cut over only when nothing blocks it and every fact was read: unknown never passes.
import { describe, expect, it } from 'vitest';
import { finding } from '../../../src/core/findings.js';
import { nodeGate } from '../../../src/core/node-gate.js';
import type { NodeFacts } from '../../../src/core/snapshot.js';

const facts: NodeFacts = {
  node: 'blue-1',
  kernel: '5.15.0-122-generic',
  nftVersion: '1.0.6',
  conntrack: { invalidPerCpu: [0], count: 10, max: 100 },
  proxyMode: 'ipvs',
  errors: [],
};
const block = (
  scope: { kind: 'node' | 'pool' | 'cluster'; name: string },
  subjects: string[] = [],
) =>
  finding({
    check: 'kernel-version',
    severity: 'block',
    scope,
    subjects,
    title: 'old kernel',
    remedy: 'upgrade',
  });

describe('nodeGate', () => {
  it('lets a node with every fact read and no blocker through, with its warnings', () => {
    const warn = finding({
      check: 'nodeport-addresses',
      severity: 'warn',
      scope: { kind: 'cluster', name: 'c' },
      title: 'w',
      remedy: 'r',
    });
    const gate = nodeGate([warn], 'blue-1', 'blue', facts);
    expect(gate).toMatchObject({ ok: true, reasons: [] });
    expect(gate.warnings).toEqual([warn]);
  });

  it('blocks on a blocker about the node, its pool (naming it or no node) or the cluster', () => {
    expect(nodeGate([block({ kind: 'node', name: 'blue-1' })], 'blue-1', 'blue', facts).ok).toBe(
      false,
    );
    expect(
      nodeGate([block({ kind: 'pool', name: 'blue' }, ['blue-1'])], 'blue-1', 'blue', facts).ok,
    ).toBe(false);
    expect(
      nodeGate([block({ kind: 'pool', name: 'blue' }, ['blue-2'])], 'blue-1', 'blue', facts).ok,
    ).toBe(true);
    expect(nodeGate([block({ kind: 'cluster', name: 'c' })], 'blue-1', 'blue', facts).ok).toBe(
      false,
    );
  });

  it('blocks when a fact could not be read, or the node was not probed at all', () => {
    const failed = {
      ...facts,
      proxyMode: undefined,
      errors: [{ probe: 'proxy-mode', code: 'K8S_UNREACHABLE', message: 'API server went away' }],
    };
    const { proxyMode: _gone, ...noMode } = failed;
    expect(nodeGate([], 'blue-1', 'blue', noMode).reasons).toEqual([
      'could not read proxy-mode on blue-1 (K8S_UNREACHABLE: API server went away): unknown never passes',
    ]);
    expect(nodeGate([], 'blue-1', 'blue', undefined).reasons[0]).toMatch(/was not probed/);
    const { kernel: _k, ...noKernel } = facts;
    expect(nodeGate([], 'blue-1', 'blue', noKernel).reasons).toEqual([
      'blue-1: kernel unknown after probing: unknown never passes',
    ]);
  });
});
