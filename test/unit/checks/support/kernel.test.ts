import { describe, expect, it } from 'vitest';
import {
  kernelsBelow,
  nodeKernel,
  nodesBelowNftablesKernel,
} from '../../../../src/checks/support/kernel.js';
import { ctxOf, facts } from '../../../fixtures/checks-b.js';
import { node } from '../../../fixtures/kube.js';

const nodes = [
  node({ name: 'c-rebooted', kernel: '6.1.0' }),
  node({ name: 'b-upgraded', kernel: '5.4.0-80-generic' }),
  node({ name: 'a-old', kernel: '5.4.0-80-generic' }),
  node({ name: 'd-blank', kernel: '5.10.0' }),
];
const ctx = ctxOf({
  nodes,
  nodeFacts: [
    facts('c-rebooted', { kernel: '5.4.0-80-generic' }),
    facts('b-upgraded', { kernel: '5.15.0-122-generic' }),
    facts('d-blank', { kernel: '  ' }),
  ],
});

describe('nodeKernel', () => {
  it('prefers the running kernel to the Node object’s', () => {
    expect(nodeKernel(ctx, nodes[0]!)).toMatchObject({
      effective: '5.4.0-80-generic',
      source: 'uname -r',
      reported: '6.1.0',
    });
    expect(nodeKernel(ctx, nodes[3]!)).toMatchObject({
      effective: '5.10.0',
      source: 'status.nodeInfo.kernelVersion',
      probed: true,
      probeProblem: 'the probe returned no kernel',
    });
  });
});

describe('nodes below a kernel floor', () => {
  it('judges each node by uname -r first, else by its Node object', () => {
    expect(nodesBelowNftablesKernel(ctx)).toEqual(['a-old', 'c-rebooted', 'd-blank']);
    expect(kernelsBelow(ctx, { major: 5, minor: 5, patch: 0 }).map((k) => k.node)).toEqual([
      'c-rebooted',
      'a-old',
    ]);
  });
});
