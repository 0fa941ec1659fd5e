// A node may be cut over only when nothing blocks it and every fact was read: unknown never passes.
import { describe, expect, it } from 'vitest';
import { finding } from '../../../src/core/findings.js';
import { nodeGate } from '../../../src/core/node-gate.js';
import type { NodeFacts } from '../../../src/core/snapshot.js';
import { kernelVersion } from '../../../src/checks/kernel-version.js';
import { nftVersion } from '../../../src/checks/nft-version.js';
import { ctxOf, facts as factsOf, poolNodes } from '../../fixtures/checks-b.js';
import { kubeadmDaemonSet } from '../../fixtures/kube.js';

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

  it('still refuses a node below kernel 5.13 whatever kube-proxy version, and whatever it says', () => {
    const legacy = poolNodes('legacy', 1, { kernel: '5.4.0-80-generic' });
    for (const image of ['v1.31.4', 'v1.32.5', 'v1.34.2']) {
      const ds = kubeadmDaemonSet();
      ds.spec!.template!.spec!.containers[0]!.image = `registry.k8s.io/kube-proxy:${image}`;
      const nodeFacts = [factsOf('legacy-1', { kernel: '5.4.0-80-generic' })];
      const findings = kernelVersion.run(
        ctxOf({ nodes: legacy, nodeFacts, kubeSystemDaemonSets: [ds] }),
      );
      const gate = nodeGate(findings, 'legacy-1', 'legacy', nodeFacts[0]);
      expect(gate.ok).toBe(false);
      expect(gate.reasons.join('\n')).toContain(
        'kernel-version: 1 of 1 node (legacy-1) on kernel 5.4',
      );
    }
  });

  it('lets a host without nft through: an answer, not an unknown (kube-proxy uses its image’s nft)', () => {
    const bare: NodeFacts = { ...facts, hostNftMissing: true };
    delete bare.nftVersion;
    expect(nodeGate([], 'blue-1', 'blue', bare)).toMatchObject({ ok: true, reasons: [] });
    // Without that answer a missing nft version is still unknown, and unknown never passes.
    const unknown: NodeFacts = { ...facts };
    delete unknown.nftVersion;
    expect(nodeGate([], 'blue-1', 'blue', unknown).reasons).toEqual([
      'blue-1: nftVersion unknown after probing: unknown never passes',
    ]);
  });

  it('a host without nft gets an info note from nft-version, not a blocker', () => {
    const blue = poolNodes('blue', 1);
    const nodeFacts = [
      {
        node: 'blue-1',
        kernel: '5.15.0-122-generic',
        errors: [{ probe: 'nft-version', code: 'exit-127', message: 'nft: command not found' }],
      },
    ];
    const findings = nftVersion.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(findings.map((f) => f.severity)).toEqual(['info']);
    const gate = nodeGate(findings, 'blue-1', 'blue', nodeFacts[0]);
    // The gate itself still refuses a probe error (unknown never passes); the finding does not block.
    expect(gate.reasons.filter((r) => r.startsWith('nft-version:'))).toEqual([]);
  });
});
