import { describe, expect, it } from 'vitest';
import type { NodeSelector } from '../../../src/core/actions.js';
import type { PodSpec } from '../../../src/core/kube.js';
import {
  exclusionOf,
  podSpecWithRequired,
  withExclusion,
  withoutExclusion,
} from '../../../src/core/node-affinity.js';

const LABEL = 'proxy-migrate.io/mode';
const NOT_IN = exclusionOf(LABEL);
const linux = { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] };
const notFargate = {
  key: 'eks.amazonaws.com/compute-type',
  operator: 'NotIn',
  values: ['fargate'],
};

describe('withExclusion', () => {
  it('adds one term when there is no required affinity, or an empty one', () => {
    expect(withExclusion(null, LABEL)).toEqual({
      nodeSelectorTerms: [{ matchExpressions: [NOT_IN] }],
    });
    expect(withExclusion({ nodeSelectorTerms: [] }, LABEL)).toEqual({
      nodeSelectorTerms: [{ matchExpressions: [NOT_IN] }],
    });
  });

  it('joins every existing term, keeping matchFields', () => {
    const required: NodeSelector = {
      nodeSelectorTerms: [
        { matchExpressions: [linux, notFargate] },
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
      ],
    };
    expect(withExclusion(required, LABEL)).toEqual({
      nodeSelectorTerms: [
        { matchExpressions: [linux, notFargate, NOT_IN] },
        {
          matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }],
          matchExpressions: [NOT_IN],
        },
      ],
    });
  });

  it('leaves a term with the exclusion alone and replaces an older NotIn on the label', () => {
    const done = { matchExpressions: [linux, { ...NOT_IN, values: ['nftables', 'switching'] }] };
    const older = {
      matchExpressions: [{ key: LABEL, operator: 'NotIn', values: ['nftables'] }, linux],
    };
    const result = withExclusion({ nodeSelectorTerms: [done, older] }, LABEL);
    expect(result.nodeSelectorTerms[0]).toBe(done);
    expect(result.nodeSelectorTerms[1]).toEqual({ matchExpressions: [NOT_IN, linux] });
  });
});

describe('withoutExclusion', () => {
  it('undoes withExclusion exactly, down to null for a term it added', () => {
    const required: NodeSelector = {
      nodeSelectorTerms: [{ matchExpressions: [linux] }, { matchExpressions: [notFargate] }],
    };
    expect(withoutExclusion(withExclusion(required, LABEL), LABEL)).toEqual(required);
    expect(withoutExclusion(withExclusion(null, LABEL), LABEL)).toBeNull();
    expect(withoutExclusion(null, LABEL)).toBeNull();
  });

  it('keeps other expressions on the same key', () => {
    const own = { key: LABEL, operator: 'Exists' };
    expect(
      withoutExclusion({ nodeSelectorTerms: [{ matchExpressions: [own, NOT_IN] }] }, LABEL),
    ).toEqual({
      nodeSelectorTerms: [{ matchExpressions: [own] }],
    });
  });
});

describe('podSpecWithRequired', () => {
  const spec: PodSpec = {
    containers: [],
    affinity: {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
      podAffinity: {},
    },
    hostNetwork: true,
  };

  it('replaces the required affinity in place', () => {
    const out = podSpecWithRequired(spec, { nodeSelectorTerms: [{ matchExpressions: [linux] }] });
    expect(Object.keys(out)).toEqual(['containers', 'affinity', 'hostNetwork']);
    expect(out.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [linux] }],
        },
      },
      podAffinity: {},
    });
  });

  it('removes what it empties and nothing else', () => {
    expect(podSpecWithRequired(spec, null).affinity).toEqual({ podAffinity: {} });
    expect(podSpecWithRequired({ containers: [], affinity: { nodeAffinity: {} } }, null)).toEqual({
      containers: [],
    });
    expect(spec.affinity?.nodeAffinity).toHaveProperty(
      'requiredDuringSchedulingIgnoredDuringExecution',
    );
  });
});
