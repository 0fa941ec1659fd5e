import { describe, expect, it } from 'vitest';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { invalid, pod, registry } from './fixtures.js';

const pods = resourceFor('pods');
const services = resourceFor('services');
const configmaps = resourceFor('configmaps');

const cm = (meta: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default', ...meta },
});

describe('ObjectMeta validation', () => {
  it('checks names with the kind NameFunc: subdomain for pods, DNS-1035 label for services', () => {
    const r = registry();
    const bad = invalid(() => r.create(pods, pod({}, 'Bad_Name')));
    expect(bad.message).toMatch(
      /^Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    expect(bad.status.details).toMatchObject({ name: 'Bad_Name', kind: 'Pod' });
    const svc = invalid(() =>
      r.create(services, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: '1web', namespace: 'default' },
        spec: { ports: [{ port: 80 }] },
      }),
    );
    expect(svc.causes[0]).toMatch(
      /^metadata.name: Invalid value: "1web": a DNS-1035 label must consist/,
    );
  });

  it('requires a name or generateName and validates both', () => {
    const r = registry();
    expect(invalid(() => r.create(configmaps, cm({ name: '' }))).message).toBe(
      'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
    );
    const gen = invalid(() => r.create(configmaps, cm({ name: '', generateName: 'Bad-' })));
    expect(gen.causes.map((c) => c.split(':')[0])).toEqual([
      'metadata.generateName',
      'metadata.name',
    ]);
  });

  it('checks label keys and values, annotation keys and the 256 KiB total', () => {
    const r = registry();
    const labels = invalid(() =>
      r.create(configmaps, cm({ labels: { 'a/b/c': 'x', ok: 'bad value' } })),
    );
    expect(labels.causes[0]).toMatch(
      /^metadata.labels: Invalid value: "a\/b\/c": a qualified name must consist/,
    );
    expect(labels.causes[1]).toMatch(
      /^metadata.labels: Invalid value: "bad value": a valid label must be an empty string/,
    );
    const big = invalid(() =>
      r.create(configmaps, cm({ annotations: { a: 'x'.repeat(256 * 1024) } })),
    );
    expect(big.causes).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
    r.create(configmaps, cm({ annotations: { a: 'x'.repeat(256 * 1024 - 1) } }));
  });

  it('checks finalizers: qualified, standard when unqualified, never orphan with foreground', () => {
    const r = registry();
    const bad = invalid(() => r.create(configmaps, cm({ finalizers: ['hold'] })));
    expect(bad.causes).toEqual([
      'metadata.finalizers[0]: Invalid value: "hold": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    const both = invalid(() =>
      r.create(configmaps, cm({ finalizers: ['orphan', 'foregroundDeletion'] })),
    );
    expect(both.causes).toEqual([
      'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });

  it('checks owner references and allows one controller', () => {
    const r = registry();
    const bad = invalid(() =>
      r.create(
        configmaps,
        cm({ ownerReferences: [{ apiVersion: '', kind: 'DaemonSet', name: 'x', uid: 'u' }] }),
      ),
    );
    expect(bad.causes).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
    ]);
    const two = invalid(() =>
      r.create(
        configmaps,
        cm({
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'a', uid: 'u1', controller: true },
            { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'b', uid: 'u2', controller: true },
          ],
        }),
      ),
    );
    expect(two.causes[0]).toMatch(
      /Only one reference can have Controller set to true. Found "true" in references for DaemonSet\/a and DaemonSet\/b$/,
    );
  });

  it('keeps name, uid and creationTimestamp immutable and deletion fields for DELETE only', () => {
    const r = registry();
    const created = r.create(configmaps, cm({}));
    const uid = invalid(() =>
      r.update(
        configmaps,
        { ...created, metadata: { ...created.metadata, uid: 'other' } },
        undefined,
      ),
    );
    expect(uid.message).toBe(
      'ConfigMap "c" is invalid: metadata.uid: Invalid value: "other": field is immutable',
    );
    // The common fields and the strategy both check it: two causes, one message.
    expect(uid.causes).toEqual([
      'metadata.uid: Invalid value: "other": field is immutable',
      'metadata.uid: Invalid value: "other": field is immutable',
    ]);
    const kept = r.update(
      configmaps,
      {
        ...created,
        metadata: { ...created.metadata, uid: '', creationTimestamp: '2001-01-01T00:00:00Z' },
      },
      undefined,
    );
    expect(kept.metadata).toMatchObject({
      uid: created.metadata.uid,
      creationTimestamp: created.metadata.creationTimestamp,
    });
    const deleting = invalid(() =>
      r.update(
        configmaps,
        {
          ...created,
          metadata: { ...created.metadata, deletionTimestamp: '2030-01-02T03:04:05Z' },
        },
        undefined,
      ),
    );
    expect(deleting.causes[0]).toBe(
      'metadata.deletionTimestamp: Invalid value: 2030-01-02 03:04:05 +0000 UTC: field is immutable',
    );
  });

  it('forbids new finalizers once an object is being deleted', () => {
    const r = registry();
    r.create(configmaps, cm({ finalizers: ['example.com/a'] }));
    const marked = r.delete(configmaps, 'default', 'c');
    const bad = invalid(() =>
      r.update(
        configmaps,
        {
          ...marked,
          metadata: { ...marked.metadata, finalizers: ['example.com/a', 'example.com/b'] },
        },
        undefined,
      ),
    );
    expect(bad.causes[0]).toBe(
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}',
    );
  });
});
