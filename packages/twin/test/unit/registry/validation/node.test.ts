import { describe, expect, it } from 'vitest';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { invalid, registry } from './fixtures.js';

const nodes = resourceFor('nodes');

const node = (spec: JsonObject, name = 'n2'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  spec,
});

describe('Node validation', () => {
  it('checks taints under metadata.taints as upstream reports them', () => {
    const r = registry();
    const bad = invalid(() =>
      r.create(
        nodes,
        node({
          taints: [
            { key: 'a', effect: 'NoSchedule' },
            { key: 'a', effect: 'NoSchedule' },
            { key: 'b', effect: 'Sometimes' },
            { key: 'c' },
          ],
        }),
      ),
    );
    expect(bad.causes).toEqual([
      'metadata.taints[1]: Duplicate value: core.Taint{Key:"a", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
      'metadata.taints[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'metadata.taints[3].effect: Required value',
    ]);
  });

  it('checks podCIDRs and keeps them and providerID once set', () => {
    const r = registry();
    expect(invalid(() => r.create(nodes, node({ podCIDR: '10.0.0.1/24' }))).causes).toEqual([
      'spec.podCIDRs[0]: Invalid value: "10.0.0.1/24": must not have bits set beyond the prefix length',
    ]);
    expect(
      invalid(() => r.create(nodes, node({ podCIDRs: ['10.0.0.0/24', '10.0.1.0/24'] }))).causes,
    ).toEqual([
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.0.1.0/24"}: may specify no more than one CIDR for each IP family',
    ]);
    const created = r.create(nodes, node({ podCIDR: '10.0.0.0/24', providerID: 'aws:///i-1' }));
    const changed = invalid(() =>
      r.update(
        nodes,
        { ...created, spec: { podCIDR: '10.0.9.0/24', providerID: 'aws:///i-2' } },
        undefined,
      ),
    );
    expect(changed.causes).toEqual([
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ]);
    const cordoned = r.update(
      nodes,
      { ...created, spec: { ...(created['spec'] as object), unschedulable: true } },
      undefined,
    );
    expect((cordoned['spec'] as { unschedulable: boolean }).unschedulable).toBe(true);
  });

  it('keeps the status a Node is created with, as the kubelet registers it', () => {
    const r = registry();
    const created = r.create(nodes, { ...node({}), status: { capacity: { cpu: '2' } } });
    expect(created['status']).toEqual({ capacity: { cpu: '2' } });
  });
});
