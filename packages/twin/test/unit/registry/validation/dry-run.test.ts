import { describe, expect, it } from 'vitest';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { omit } from '../../../../src/apimachinery/types.js';
import { daemonSet, invalid, registry } from './fixtures.js';

const daemonsets = resourceFor('daemonsets');

/** The response without what differs between any two writes: uid, resourceVersion, timestamps. */
function comparable(obj: KubeObject): Record<string, unknown> {
  return { ...obj, metadata: omit(obj.metadata, 'uid', 'resourceVersion', 'creationTimestamp') };
}

describe('dry runs', () => {
  it('answer a create exactly as the real write, uid and creationTimestamp included, and store nothing', () => {
    const r = registry();
    const rv = r.store.resourceVersion;
    const dry = r.create(daemonsets, daemonSet(), { dryRun: true });
    expect(r.store.resourceVersion).toBe(rv);
    expect(dry.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(dry.metadata.creationTimestamp).toBeDefined();
    expect(dry.metadata.resourceVersion).toBeUndefined();
    const real = r.create(daemonsets, daemonSet());
    expect(comparable(dry)).toEqual(comparable(real));
    expect(dry.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('1');
  });

  it('answer an update with the bumped generations and reject what the real write rejects', () => {
    const r = registry();
    const created = r.create(daemonsets, daemonSet());
    const next = structuredClone(created);
    const containers = (next['spec'] as { template: { spec: { containers: { image: string }[] } } })
      .template.spec.containers;
    containers[0]!.image = 'agent:2';
    const dry = r.update(daemonsets, next, undefined, { dryRun: true });
    expect(r.store.get(daemonsets, 'default', 'agent')?.metadata.generation).toBe(1);
    const real = r.update(daemonsets, next, undefined);
    expect(comparable(dry)).toEqual(comparable(real));
    expect(dry.metadata.generation).toBe(2);
    const broken = structuredClone(real);
    (broken['spec'] as Record<string, unknown>)['selector'] = { matchLabels: { app: 'x' } };
    const dryError = invalid(() => r.update(daemonsets, broken, undefined, { dryRun: true }));
    expect(dryError.causes).toEqual(invalid(() => r.update(daemonsets, broken, undefined)).causes);
  });
});
