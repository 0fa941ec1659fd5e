// Server-side apply and fieldValidation through the real @kubernetes/client-node 1.4 (and raw
// HTTP where the client hides status codes and headers): apply patches with a fieldManager,
// conflicts and force, the managers a write records, and strict, warned and duplicate fields.
import type { V1ConfigMap } from '@kubernetes/client-node';
import {
  ApiException,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from './harness.js';
import { startHarness } from './harness.js';

let h: Harness;
let core: CoreV1Api;
const ssa = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

beforeAll(async () => {
  h = await startHarness();
  const kc = new KubeConfig();
  kc.loadFromString(h.kubeconfigYaml);
  core = kc.makeApiClient(CoreV1Api);
});

afterAll(async () => {
  await h.close();
});

async function apiError(promise: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) return error as ApiException<string>;
    throw error;
  }
  throw new Error('expected an ApiException');
}

const cm = (name: string, data: Record<string, string>): V1ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data,
});

const path = (name: string, query = ''): string =>
  `${h.url}/api/v1/namespaces/default/configmaps${name === '' ? '' : `/${name}`}${query}`;

describe('client-node server-side apply', () => {
  it('creates with an apply patch (201) and records the fieldManager as an Apply manager', async () => {
    const res = await fetch(path('raw', '?fieldManager=proxy-migrate'), {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify(cm('raw', { a: '1' })),
    });
    expect(res.status).toBe(201);
    const applied = await core.patchNamespacedConfigMap(
      {
        name: 'typed',
        namespace: 'default',
        fieldManager: 'proxy-migrate',
        body: cm('typed', { a: '1' }),
      },
      ssa,
    );
    expect(
      applied.metadata?.managedFields?.map((e): unknown[] => [e.manager, e.operation, e.fieldsV1]),
    ).toEqual([['proxy-migrate', 'Apply', { 'f:data': { 'f:a': {} } }]]);
  });

  it('answers 409 with FieldManagerConflict causes, and force takes the field', async () => {
    const args = { name: 'typed', namespace: 'default', body: cm('typed', { a: '2' }) };
    const error = await apiError(
      core.patchNamespacedConfigMap({ ...args, fieldManager: 'other' }, ssa),
    );
    expect(error.code).toBe(409);
    expect(JSON.parse(error.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "proxy-migrate": .data.a',
      reason: 'Conflict',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "proxy-migrate"',
            field: '.data.a',
          },
        ],
      },
      code: 409,
    });
    const forced = await core.patchNamespacedConfigMap(
      { ...args, fieldManager: 'other', force: true },
      ssa,
    );
    expect(forced.data).toEqual({ a: '2' });
    expect(forced.metadata?.managedFields?.map((e) => e.manager)).toEqual(['other']);
  });

  it('requires a fieldManager for apply', async () => {
    const error = await apiError(
      core.patchNamespacedConfigMap(
        { name: 'typed', namespace: 'default', body: cm('typed', {}) },
        ssa,
      ),
    );
    expect(error.code).toBe(422);
    expect(JSON.parse(error.body)).toMatchObject({
      message:
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [
          {
            reason: 'FieldValueRequired',
            message: 'Required value: is required for apply patch',
            field: 'fieldManager',
          },
        ],
      },
    });
  });

  it('applies to the status subresource as its own manager, leaving spec alone', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'status-apply', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    };
    await core.createNamespacedPod({ namespace: 'default', body: pod, fieldManager: 'creator' });
    const res = await fetch(
      `${h.url}/api/v1/namespaces/default/pods/status-apply/status?fieldManager=prober`,
      {
        method: 'PATCH',
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'status-apply', namespace: 'default' },
          status: { conditions: [{ type: 'Probed', status: 'True' }] },
          spec: { containers: [{ name: 'c', image: 'ignored' }] },
        }),
      },
    );
    expect(res.status).toBe(200);
    const stored = await core.readNamespacedPod({ name: 'status-apply', namespace: 'default' });
    expect(stored.spec?.containers[0]?.image).toBe('busybox');
    expect(stored.status?.conditions).toContainEqual({ type: 'Probed', status: 'True' });
    expect(
      stored.metadata?.managedFields?.map((e): unknown[] => [
        e.manager,
        e.operation,
        e.subresource,
      ]),
    ).toEqual([
      ['prober', 'Apply', 'status'],
      ['creator', 'Update', undefined],
    ]);
  });

  // client-node 2 sends `User-Agent: kubernetes-client-javascript/<version>` (1.x sent node-fetch's);
  // the apiserver names the manager after the User-Agent up to its first `/`.
  it('names a write without fieldManager after the User-Agent (kubernetes-client-javascript for client-node)', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: cm('ua', { a: '1' }),
    });
    expect(created.metadata?.managedFields?.map((e) => [e.manager, e.operation])).toEqual([
      ['kubernetes-client-javascript', 'Update'],
    ]);
  });
});

describe('client-node fieldValidation', () => {
  const unknown = { ...cm('strict', { a: '1' }), spec: { mode: 'nftables' } } as V1ConfigMap;

  it('never sends an unknown field through the typed API: its serializer drops it', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: unknown,
      fieldValidation: 'Strict',
    });
    expect(created.metadata?.name).toBe('strict');
    expect((created as Record<string, unknown>)['spec']).toBeUndefined();
  });

  it('passes unknown fields through the generic object API, and the server drops them', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(h.kubeconfigYaml);
    // KubernetesObjectApi has no fieldValidation parameter: the server's default (Warn) applies.
    const objects = kc.makeApiClient(KubernetesObjectApi);
    const body = { ...unknown, metadata: { name: 'generic', namespace: 'default' } };
    const created = (await objects.create(body)) as unknown as Record<string, unknown>;
    expect(created['spec']).toBeUndefined();
    expect(created['data']).toEqual({ a: '1' });
  });

  it('answers 400 to an unknown field with fieldValidation=Strict', async () => {
    const res = await fetch(path('', '?fieldValidation=Strict'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...unknown, metadata: { name: 'strict-raw' } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      reason: 'BadRequest',
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"',
    });
  });

  it('warns once per field by default, and drops the field', async () => {
    const res = await fetch(path(''), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...unknown, metadata: { name: 'warned' }, extra: 1 }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe(
      '299 - "unknown field \\"spec\\"", 299 - "unknown field \\"extra\\""',
    );
    const body = (await res.json()) as Record<string, unknown>;
    expect(body['spec']).toBeUndefined();
  });

  it('reports duplicate fields: 400 when Strict, a warning when Warn', async () => {
    const text =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1","a":"2"}}';
    const strict = await fetch(path('', '?fieldValidation=Strict'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(strict.status).toBe(400);
    expect(((await strict.json()) as { message: string }).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.a"',
    );
    const warned = await fetch(path(''), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(warned.headers.get('warning')).toBe('299 - "duplicate field \\"data.a\\""');
    expect(((await warned.json()) as { data: unknown }).data).toEqual({ a: '2' });
  });

  it('answers a strict merge patch with an unknown field with 422 on the patch', async () => {
    const res = await fetch(path('dup', '?fieldValidation=Strict'), {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: '{"bogus":1}',
    });
    expect(res.status).toBe(422);
    const status = (await res.json()) as { message: string; details: unknown };
    expect(status.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{.*\\"bogus\\":1.*\}": strict decoding error: unknown field "bogus"$/,
    );
    expect(status.details).toMatchObject({
      causes: [{ reason: 'FieldValueInvalid', field: 'patch' }],
    });
  });
});
