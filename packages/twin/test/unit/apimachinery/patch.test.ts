import { describe, expect, it } from 'vitest';
import { applyJsonPatch, JsonPatchError } from '../../../src/apimachinery/json-patch.js';
import { mergePatch } from '../../../src/apimachinery/merge-patch.js';
import { strategicMerge } from '../../../src/apimachinery/strategic-merge.js';
import type { JsonObject } from '../../../src/apimachinery/types.js';

const ds = (): JsonObject => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'kube-proxy', labels: { 'k8s-app': 'kube-proxy' }, finalizers: ['a'] },
  spec: {
    template: {
      spec: {
        containers: [
          {
            name: 'kube-proxy',
            image: 'registry.k8s.io/kube-proxy:v1.33.4',
            env: [{ name: 'NODE_NAME', value: 'x' }],
            volumeMounts: [{ name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' }],
          },
          { name: 'sidecar', image: 'busybox' },
        ],
        volumes: [{ name: 'kube-proxy', configMap: { name: 'kube-proxy' } }],
        tolerations: [{ operator: 'Exists' }],
      },
    },
  },
});

const podSpec = (obj: unknown): JsonObject =>
  ((obj as JsonObject)['spec'] as JsonObject)['template'] as JsonObject;

describe('strategic merge patch', () => {
  it('merges containers and env by name, keeping other items', () => {
    const out = strategicMerge(
      ds(),
      {
        spec: {
          template: {
            spec: {
              containers: [{ name: 'kube-proxy', env: [{ name: 'FOO', value: '1' }] }],
            },
          },
        },
      },
      'apps/v1',
      'DaemonSet',
    );
    const containers = (podSpec(out)['spec'] as JsonObject)['containers'] as JsonObject[];
    expect(containers.map((c) => c['name'])).toEqual(['kube-proxy', 'sidecar']);
    expect(containers[0]!['image']).toBe('registry.k8s.io/kube-proxy:v1.33.4');
    expect(containers[0]!['env']).toEqual([
      { name: 'NODE_NAME', value: 'x' },
      { name: 'FOO', value: '1' },
    ]);
  });

  it('deletes list items with $patch: delete and keys with null', () => {
    const out = strategicMerge(
      ds(),
      {
        metadata: { labels: { 'k8s-app': null } },
        spec: {
          template: {
            spec: {
              containers: [{ name: 'sidecar', $patch: 'delete' }],
              volumes: [{ name: 'kube-proxy', configMap: { name: 'kube-proxy-nftables' } }],
            },
          },
        },
      },
      'apps/v1',
      'DaemonSet',
    ) as JsonObject;
    const spec = podSpec(out)['spec'] as JsonObject;
    expect((spec['containers'] as JsonObject[]).map((c) => c['name'])).toEqual(['kube-proxy']);
    expect(spec['volumes']).toEqual([
      { name: 'kube-proxy', configMap: { name: 'kube-proxy-nftables' } },
    ]);
    expect((out['metadata'] as JsonObject)['labels']).toEqual({});
  });

  it('replaces tolerations, merges finalizers as a set, honours $setElementOrder', () => {
    const out = strategicMerge(
      ds(),
      {
        metadata: { finalizers: ['b', 'a'] },
        spec: {
          template: {
            spec: {
              tolerations: [{ key: 'x', operator: 'Exists' }],
              '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'kube-proxy' }],
            },
          },
        },
      },
      'apps/v1',
      'DaemonSet',
    ) as JsonObject;
    const spec = podSpec(out)['spec'] as JsonObject;
    expect(spec['tolerations']).toEqual([{ key: 'x', operator: 'Exists' }]);
    expect((spec['containers'] as JsonObject[]).map((c) => c['name'])).toEqual([
      'sidecar',
      'kube-proxy',
    ]);
    expect((out['metadata'] as JsonObject)['finalizers']).toEqual(['a', 'b']);
  });

  it('replaces a whole list with $patch: replace', () => {
    const out = strategicMerge(
      ds(),
      { spec: { template: { spec: { volumes: [{ $patch: 'replace' }, { name: 'only' }] } } } },
      'apps/v1',
      'DaemonSet',
    );
    expect((podSpec(out)['spec'] as JsonObject)['volumes']).toEqual([{ name: 'only' }]);
  });
});

describe('JSON merge patch', () => {
  it('merges maps, deletes nulls and replaces lists', () => {
    expect(mergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] })).toEqual({
      a: { c: 2, d: 3 },
      l: [3],
    });
    expect(mergePatch({ a: 1 }, {})).toEqual({ a: 1 });
  });
});

describe('JSON patch', () => {
  const doc = { metadata: { labels: { 'a/b': 'x' } }, list: [1, 2, 3] };

  it('applies add, remove, replace, move, copy and test', () => {
    const out = applyJsonPatch(doc, [
      { op: 'test', path: '/metadata/labels/a~1b', value: 'x' },
      { op: 'add', path: '/list/-', value: 4 },
      { op: 'remove', path: '/list/0' },
      { op: 'replace', path: '/list/0', value: 20 },
      { op: 'copy', from: '/list/0', path: '/copied' },
      { op: 'move', from: '/copied', path: '/moved' },
    ]);
    expect(out).toEqual({ metadata: { labels: { 'a/b': 'x' } }, list: [20, 3, 4], moved: 20 });
    expect(doc.list).toEqual([1, 2, 3]);
  });

  it('fails the whole patch when a test fails or a path is missing', () => {
    expect(() => applyJsonPatch(doc, [{ op: 'test', path: '/list/0', value: 9 }])).toThrow(
      JsonPatchError,
    );
    expect(() => applyJsonPatch(doc, [{ op: 'remove', path: '/nope/x' }])).toThrow(
      'doc is missing path',
    );
    expect(() => applyJsonPatch(doc, { op: 'add' })).toThrow(JsonPatchError);
  });
});
