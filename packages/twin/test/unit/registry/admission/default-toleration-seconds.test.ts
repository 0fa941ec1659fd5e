// DefaultTolerationSeconds: pods get bounded not-ready and unreachable tolerations unless they
// already tolerate those taints, on create, update and (as if admitted) in a scenario.
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../../src/clock.js';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord } from '../../../../src/apimachinery/types.js';
import { Registry } from '../../../../src/registry/registry.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import { ObjectStore } from '../../../../src/store/store.js';

const pods = resourceFor('pods');
const defaults = [
  {
    key: 'node.kubernetes.io/not-ready',
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  },
  {
    key: 'node.kubernetes.io/unreachable',
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  },
];

const pod = (name: string, tolerations?: JsonObject[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: {
    containers: [{ name: 'c', image: 'busybox:1.36' }],
    ...(tolerations ? { tolerations } : {}),
  },
});

function registry(seeded: KubeObject[] = []): Registry {
  const r = new Registry(new ObjectStore(createManualClock()));
  r.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }, ...seeded]);
  return r;
}

const tolerationsOf = (obj: KubeObject | undefined): unknown =>
  asRecord(obj?.['spec'])['tolerations'];

describe('DefaultTolerationSeconds admission', () => {
  it('adds both bounded tolerations to a pod that has none', () => {
    expect(tolerationsOf(registry().create(pods, pod('a')))).toEqual(defaults);
  });

  it('leaves a pod that already tolerates them, with an empty key or a matching one', () => {
    const r = registry();
    expect(tolerationsOf(r.create(pods, pod('b', [{ operator: 'Exists' }])))).toEqual([
      { operator: 'Exists' },
    ]);
    const own = [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 5,
      },
    ];
    expect(tolerationsOf(r.create(pods, pod('c', own)))).toEqual([...own, defaults[1]]);
  });

  it('applies on update and to scenario pods, but not through the status subresource', () => {
    const r = registry([pod('seeded')]);
    expect(tolerationsOf(r.store.get(pods, 'default', 'seeded'))).toEqual(defaults);
    // A PUT that drops them gets them back before validation, so it is no forbidden removal.
    const created = r.create(pods, pod('d'));
    const stripped = { ...created, spec: { ...asRecord(created['spec']), tolerations: [] } };
    expect(tolerationsOf(r.update(pods, stripped, undefined))).toEqual(defaults);
    // A pod stored without them (written past the registry) gains none from a status write.
    const bare = r.store.create(pods, pod('e'));
    expect(tolerationsOf(r.update(pods, bare, undefined, { subresource: 'status' }))).toBe(
      undefined,
    );
  });
});
