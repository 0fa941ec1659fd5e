import { describe, expect, it } from 'vitest';
import { resourceFor } from '../../../../src/registry/resources.js';
import { daemonSet, invalid, pod, registry } from './fixtures.js';

const pods = resourceFor('pods');
const daemonsets = resourceFor('daemonsets');

const required = (terms: unknown[]) => ({
  affinity: {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  },
});

describe('node affinity validation', () => {
  it('checks operators and their values', () => {
    const r = registry();
    const bad = invalid(() =>
      r.create(
        pods,
        pod(
          required([
            {
              matchExpressions: [
                { key: 'a', operator: 'In' },
                { key: 'b', operator: 'Exists', values: ['x'] },
                { key: 'c', operator: 'Gt', values: ['1', '2'] },
                { key: 'd', operator: 'Near', values: ['x'] },
                { key: 'bad key', operator: 'NotIn', values: ['bad value'] },
              ],
            },
          ]),
        ),
      ),
    );
    const base =
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions';
    expect(bad.causes.slice(0, 4)).toEqual([
      `${base}[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      `${base}[1].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      `${base}[2].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
      `${base}[3].operator: Invalid value: "Near": not a valid selector operator`,
    ]);
    expect(bad.causes[4]).toMatch(
      new RegExp(
        `^${base.replace(/[.[\]]/g, '\\$&')}\\[4\\]\\.key: Invalid value: "bad key": name part must consist`,
      ),
    );
    expect(bad.causes[5]).toMatch(
      /\[4\]\.values\[0\]: Invalid value: "bad value": a valid label must be/,
    );
  });

  it('allows only metadata.name with one value in matchFields', () => {
    const r = registry();
    const bad = invalid(() =>
      r.create(
        pods,
        pod(
          required([
            { matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['a', 'b'] }] },
          ]),
        ),
      ),
    );
    const base =
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0]';
    expect(bad.causes).toEqual([
      `${base}.values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`,
      `${base}.key: Invalid value: "metadata.uid": not a valid field selector key`,
    ]);
  });

  it('requires a term in a required selector, in pods and DaemonSet templates', () => {
    const r = registry();
    expect(invalid(() => r.create(pods, pod(required([])))).causes).toEqual([
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
    ]);
    const ds = daemonSet();
    const template = (ds['spec'] as { template: { spec: Record<string, unknown> } }).template;
    Object.assign(template.spec, required([]));
    expect(invalid(() => r.create(daemonsets, ds)).causes).toEqual([
      'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
    ]);
  });

  it('checks preferred term weights', () => {
    const r = registry();
    const spec = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 0, preference: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } },
          ],
        },
      },
    };
    expect(invalid(() => r.create(pods, pod(spec))).causes).toEqual([
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
    ]);
  });
});
