import { describe, expect, it } from 'vitest';
import { createClock } from '../../../src/clock.js';
import { ApiError } from '../../../src/apimachinery/errors.js';
import type { ChangeEvent } from '../../../src/store/event-history.js';
import { resourceFor } from '../../../src/registry/resources.js';
import { ObjectStore } from '../../../src/store/store.js';
import type { KubeObject } from '../../../src/apimachinery/types.js';

const cms = resourceFor('configmaps');
const dss = resourceFor('daemonsets');

function cm(name: string, data: Record<string, string> = {}, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('ObjectStore', () => {
  it('assigns uid, creationTimestamp and increasing resourceVersions', () => {
    const store = new ObjectStore(createClock());
    const a = store.create(cms, cm('a'));
    const b = store.create(cms, cm('b'));
    expect(a.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.metadata.creationTimestamp).toMatch(/Z$/);
    expect(Number(b.metadata.resourceVersion)).toBeGreaterThan(Number(a.metadata.resourceVersion));
    expect(store.resourceVersion).toBe(Number(b.metadata.resourceVersion));
    expect(apiError(() => store.create(cms, cm('a'))).reason).toBe('AlreadyExists');
  });

  it('rejects stale writes with 409 Conflict and keeps no-op updates at the same RV', () => {
    const store = new ObjectStore(createClock());
    const a = store.create(cms, cm('a', { k: '1' }));
    const a2 = store.update(cms, cm('a', { k: '2' }), { expectedRv: a.metadata.resourceVersion });
    const err = apiError(() =>
      store.update(cms, cm('a', { k: '3' }), { expectedRv: a.metadata.resourceVersion }),
    );
    expect(err.code).toBe(409);
    expect(err.message).toContain('the object has been modified');
    const same = store.update(cms, cm('a', { k: '2' }));
    expect(same.metadata.resourceVersion).toBe(a2.metadata.resourceVersion);
    expect(same.metadata.uid).toBe(a.metadata.uid);
  });

  it('bumps generation only on spec changes for kinds that have it', () => {
    const store = new ObjectStore(createClock());
    const base: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'kube-proxy', namespace: 'kube-system' },
      spec: { template: { spec: { containers: [{ name: 'c', image: 'a' }] } } },
    };
    expect(store.create(dss, base).metadata.generation).toBe(1);
    const labelled = store.update(dss, {
      ...base,
      metadata: { ...base.metadata, labels: { x: 'y' } },
    });
    expect(labelled.metadata.generation).toBe(1);
    const changed = store.update(dss, {
      ...labelled,
      spec: { template: { spec: { containers: [] } } },
    });
    expect(changed.metadata.generation).toBe(2);
    expect(store.create(cms, cm('x')).metadata.generation).toBeUndefined();
  });

  it('emits change events and replays them from history, 410 once compacted', () => {
    const store = new ObjectStore(createClock());
    const seen: ChangeEvent[] = [];
    store.subscribe((e) => seen.push(e));
    const start = store.resourceVersion;
    store.create(cms, cm('a'));
    store.update(cms, cm('a', { k: 'v' }));
    store.delete(cms, 'default', 'a');
    expect(seen.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(seen[2]!.object.metadata.resourceVersion).toBe(String(store.resourceVersion));
    expect(store.changesSince(start)?.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(store.changesSince(seen[0]!.rv)?.length).toBe(2);
    store.compact();
    expect(store.changesSince(start)).toBeUndefined();
    expect(store.changesSince(store.resourceVersion)).toEqual([]);
  });

  it('keeps a bounded history', () => {
    const store = new ObjectStore(createClock(), 10);
    const start = store.resourceVersion;
    for (let i = 0; i < 50; i += 1) store.create(cms, cm(`c${i}`));
    expect(store.changesSince(start)).toBeUndefined();
    expect(store.changesSince(store.resourceVersion - 5)?.length).toBe(5);
  });

  it('pages in key order, per namespace, with a remaining count', () => {
    const store = new ObjectStore(createClock());
    store.load(cms, [
      cm('b', {}, 'ns1'),
      cm('a', {}, 'ns1'),
      cm('z', {}, 'ns-x'),
      cm('c', {}, 'ns2'),
    ]);
    const all = store.list(cms, { limit: 2 });
    expect(all.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'ns-x/z',
      'ns1/a',
    ]);
    expect(all.hasMore).toBe(true);
    expect(all.remaining).toBe(2);
    const next = store.list(cms, { limit: 2, after: all.lastKey });
    expect(next.items.map((o) => o.metadata.name)).toEqual(['b', 'c']);
    expect(next.hasMore).toBe(false);
    expect(store.list(cms, { namespace: 'ns1' }).items.map((o) => o.metadata.name)).toEqual([
      'a',
      'b',
    ]);
    expect(store.count(cms, 'ns1')).toBe(2);
    expect(store.count(cms)).toBe(4);
  });
});
