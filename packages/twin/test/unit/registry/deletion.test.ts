// The generic store's DELETE decisions: GC finalizers from propagationPolicy, orphanDependents and
// existing finalizers; markAsDeleting; graceful pod deletion that may only be shortened.
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../src/clock.js';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { gcFinalizers } from '../../../src/registry/deletion.js';
import { Registry } from '../../../src/registry/registry.js';
import { resourceFor } from '../../../src/registry/resources.js';
import { ObjectStore } from '../../../src/store/store.js';

const configmaps = resourceFor('configmaps');
const events = resourceFor('events');
const pods = resourceFor('pods');

function setup(): { r: Registry; clock: ReturnType<typeof createManualClock> } {
  const clock = createManualClock();
  const r = new Registry(new ObjectStore(clock));
  r.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }]);
  return { r, clock };
}

const cm = (name: string, finalizers?: string[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', ...(finalizers ? { finalizers } : {}) },
});

describe('GC finalizers on delete', () => {
  it('follows options first, then existing finalizers, and never touches events', () => {
    const plain = cm('a');
    expect(gcFinalizers(configmaps, plain, {})).toBeUndefined();
    expect(gcFinalizers(configmaps, plain, { propagationPolicy: 'Background' })).toBeUndefined();
    expect(gcFinalizers(configmaps, plain, { propagationPolicy: 'Orphan' })).toEqual(['orphan']);
    expect(gcFinalizers(configmaps, plain, { propagationPolicy: 'Foreground' })).toEqual([
      'foregroundDeletion',
    ]);
    expect(gcFinalizers(configmaps, plain, { orphanDependents: true })).toEqual(['orphan']);
    expect(gcFinalizers(configmaps, plain, { orphanDependents: false })).toBeUndefined();
    const withOrphan = cm('b', ['example.com/keep', 'orphan']);
    expect(gcFinalizers(configmaps, withOrphan, {})).toBeUndefined();
    expect(gcFinalizers(configmaps, withOrphan, { propagationPolicy: 'Foreground' })).toEqual([
      'example.com/keep',
      'foregroundDeletion',
    ]);
    expect(gcFinalizers(configmaps, withOrphan, { propagationPolicy: 'Background' })).toEqual([
      'example.com/keep',
    ]);
    expect(gcFinalizers(events, plain, { propagationPolicy: 'Orphan' })).toBeUndefined();
  });

  it('marks a finalized object deleting now, with grace 0, and deletes it once emptied', () => {
    const { r, clock } = setup();
    r.create(configmaps, cm('x'));
    clock.advance(5000);
    const marked = r.delete(configmaps, 'default', 'x', { propagationPolicy: 'Orphan' });
    expect(marked.metadata).toMatchObject({
      finalizers: ['orphan'],
      deletionTimestamp: clock.timestamp(),
      deletionGracePeriodSeconds: 0,
    });
    // A later Background DELETE swaps the finalizer away and so deletes it.
    clock.advance(5000);
    r.delete(configmaps, 'default', 'x', { propagationPolicy: 'Background' });
    expect(r.store.get(configmaps, 'default', 'x')).toBeUndefined();
  });

  it('answers a dry run with the object as it would be, and writes nothing', () => {
    const { r } = setup();
    r.create(configmaps, cm('y'));
    const rv = r.store.resourceVersion;
    const dry = r.delete(configmaps, 'default', 'y', {
      propagationPolicy: 'Foreground',
      dryRun: true,
    });
    expect(dry.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(r.store.get(configmaps, 'default', 'y')?.metadata.finalizers).toBeUndefined();
    expect(r.store.resourceVersion).toBe(rv);
  });
});

describe('graceful pod deletion', () => {
  function boundPod(r: Registry): void {
    r.onDelete(({ resource }) => (resource.plural === 'pods' ? 'graceful' : undefined));
    r.create(pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox:1.36' }] },
    });
  }

  it('only shortens a pending grace period', () => {
    const { r, clock } = setup();
    boundPod(r);
    const first = r.delete(pods, 'default', 'p');
    const start = clock.now();
    expect(first.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(Date.parse(first.metadata.deletionTimestamp ?? '')).toBe(start + 30_000);
    clock.advance(2000);
    expect(r.delete(pods, 'default', 'p', { gracePeriodSeconds: 60 })).toBe(
      r.store.get(pods, 'default', 'p'),
    );
    const shorter = r.delete(pods, 'default', 'p', { gracePeriodSeconds: 10 });
    expect(shorter.metadata.deletionGracePeriodSeconds).toBe(10);
    expect(Date.parse(shorter.metadata.deletionTimestamp ?? '')).toBe(start + 10_000);
    r.delete(pods, 'default', 'p', { gracePeriodSeconds: 0 });
    expect(r.store.get(pods, 'default', 'p')).toBeUndefined();
  });

  it('keeps a pod with a GC finalizer after its grace runs out, until the finalizer goes', () => {
    const { r } = setup();
    boundPod(r);
    r.delete(pods, 'default', 'p', { propagationPolicy: 'Foreground' });
    const held = r.delete(pods, 'default', 'p', { gracePeriodSeconds: 0 });
    expect(held.metadata).toMatchObject({
      finalizers: ['foregroundDeletion'],
      deletionGracePeriodSeconds: 0,
    });
    const { finalizers: _dropped, ...metadata } = held.metadata;
    r.update(pods, { ...held, metadata }, undefined);
    expect(r.store.get(pods, 'default', 'p')).toBeUndefined();
  });
});
