import { describe, expect, it } from 'vitest';
import { createClock } from '../../../src/clock.js';
import { Registry } from '../../../src/registry/registry.js';
import { resourceFor } from '../../../src/registry/resources.js';
import { ObjectStore } from '../../../src/store/store.js';
import type { KubeObject } from '../../../src/apimachinery/types.js';

const pods = resourceFor('pods');
const nodes = resourceFor('nodes');
const services = resourceFor('services');

function registry(): Registry {
  const r = new Registry(new ObjectStore(createClock()));
  r.seed([
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    },
  ]);
  return r;
}

const pod = (name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', ...extra },
  spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
});

describe('Registry', () => {
  it('generates names, defaults pods and refuses missing namespaces', () => {
    const r = registry();
    const created = r.create(pods, pod('', { generateName: 'probe-' }));
    expect(created.metadata.name).toMatch(/^probe-[a-z0-9]{5}$/);
    expect(created['status']).toEqual({ phase: 'Pending' });
    expect((created['spec'] as { restartPolicy: string }).restartPolicy).toBe('Always');
    expect(() => r.create(pods, pod('x', { namespace: 'nope' }))).toThrow(
      'namespaces "nope" not found',
    );
    expect(() => r.create(pods, pod('Bad_Name'))).toThrow('is invalid');
  });

  it('never persists dry runs', () => {
    const r = registry();
    const rv = r.store.resourceVersion;
    r.create(pods, pod('dry'), { dryRun: true });
    expect(r.store.get(pods, 'default', 'dry')).toBeUndefined();
    expect(r.store.resourceVersion).toBe(rv);
  });

  it('keeps status and spec apart through the status subresource', () => {
    const r = registry();
    const node = r.store.get(nodes, undefined, 'n1')!;
    const viaMain = r.update(
      nodes,
      { ...node, spec: { unschedulable: true }, status: {} },
      undefined,
    );
    expect(viaMain['status']).toEqual(node['status']);
    const viaStatus = r.update(nodes, { ...node, spec: {}, status: { phase: 'x' } }, undefined, {
      subresource: 'status',
    });
    expect(viaStatus['spec']).toEqual({ unschedulable: true });
    expect(viaStatus['status']).toEqual({ phase: 'x' });
  });

  it('waits for finalizers, then deletes when the last one goes', () => {
    const r = registry();
    r.create(pods, pod('f', { finalizers: ['example.com/hold'] }));
    const marked = r.delete(pods, 'default', 'f', { gracePeriodSeconds: 0 });
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(r.store.get(pods, 'default', 'f')).toBeDefined();
    r.update(pods, { ...marked, metadata: { ...marked.metadata, finalizers: [] } }, undefined);
    expect(r.store.get(pods, 'default', 'f')).toBeUndefined();
  });

  it('lets a delete hook keep terminating pods until a zero-grace delete', () => {
    const r = registry();
    r.onDelete(({ resource }) => (resource.plural === 'pods' ? 'graceful' : undefined));
    r.create(pods, pod('g'));
    const terminating = r.delete(pods, 'default', 'g');
    expect(terminating.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(r.store.get(pods, 'default', 'g')).toBeDefined();
    r.delete(pods, 'default', 'g', { gracePeriodSeconds: 0 });
    expect(r.store.get(pods, 'default', 'g')).toBeUndefined();
  });

  it('allocates ClusterIPs and NodePorts for services', () => {
    const r = registry();
    const svc = r.create(services, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'default' },
      spec: { type: 'NodePort', ports: [{ port: 80 }] },
    });
    const spec = svc['spec'] as {
      clusterIP: string;
      ports: { nodePort: number; targetPort: number }[];
    };
    expect(spec.clusterIP).toBe('10.96.0.11');
    expect(spec.ports[0]).toMatchObject({ nodePort: 30000, targetPort: 80, protocol: 'TCP' });
  });
});
