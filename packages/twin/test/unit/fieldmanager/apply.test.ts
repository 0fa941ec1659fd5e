import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/apimachinery/errors.js';
import type { JsonObject, KubeObject } from '../../../src/apimachinery/types.js';
import { applyManagedFields } from '../../../src/fieldmanager/apply.js';
import { updateManagedFields } from '../../../src/fieldmanager/field-manager.js';
import { kindContext } from '../../../src/fieldmanager/kind-context.js';

const now = '2025-06-01T10:00:00Z';
const cm = kindContext('v1', 'ConfigMap');
const ds = kindContext('apps/v1', 'DaemonSet');

const config = (data: JsonObject): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default' },
  data,
});

function apply(live: KubeObject | undefined, cfg: JsonObject, manager: string, force = false) {
  return applyManagedFields(cm, live, cfg, manager, force, now);
}

function owners(obj: KubeObject): [unknown, unknown, unknown][] {
  return (obj.metadata.managedFields ?? []).map((e) => [
    e['manager'],
    e['operation'],
    e['fieldsV1'],
  ]);
}

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('server-side apply', () => {
  it('makes the applier own exactly what it applied', () => {
    const { object } = apply(undefined, config({ a: '1', b: '2' }), 'alice');
    expect(object['data']).toEqual({ a: '1', b: '2' });
    expect(owners(object)).toEqual([['alice', 'Apply', { 'f:data': { 'f:a': {}, 'f:b': {} } }]]);
  });

  it('answers 409 when another manager owns a field it changes, with the real message', () => {
    const { object } = apply(undefined, config({ a: '1', b: '2' }), 'alice');
    const error = thrown(() => apply(object, config({ a: 'X' }), 'bob'));
    expect(error.code).toBe(409);
    expect(error.reason).toBe('Conflict');
    expect(error.message).toBe('Apply failed with 1 conflict: conflict with "alice": .data.a');
    expect(error.details).toEqual({
      causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' },
      ],
    });
  });

  it('names an Update manager with its apiVersion, and lists several conflicts by manager', () => {
    const created: KubeObject = { ...(config({ a: '1', b: '2' }) as unknown as KubeObject) };
    track(created, updateManagedFields(cm, undefined, created, 'kubectl-create', now));
    const error = thrown(() => apply(created, config({ a: 'X', b: 'Y' }), 'bob'));
    expect(error.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "kubectl-create" using v1:\n- .data.a\n- .data.b',
    );
  });

  it('takes ownership with force, and the loser keeps the rest', () => {
    const first = apply(undefined, config({ a: '1', b: '2' }), 'alice').object;
    const forced = apply(first, config({ a: 'X' }), 'bob', true).object;
    expect(forced['data']).toEqual({ a: 'X', b: '2' });
    expect(owners(forced)).toEqual([
      ['alice', 'Apply', { 'f:data': { 'f:b': {} } }],
      ['bob', 'Apply', { 'f:data': { 'f:a': {} } }],
    ]);
  });

  it('removes what the applier alone owned and no longer applies; keeps co-owned fields', () => {
    let obj = apply(undefined, config({ a: '1', shared: 's' }), 'alice').object;
    obj = apply(obj, config({ shared: 's' }), 'bob').object;
    const { data: _none, ...nothing } = config({});
    obj = apply(obj, nothing, 'alice').object;
    expect(obj['data']).toEqual({ shared: 's' });
    expect(owners(obj).map((o) => o[0])).toEqual(['bob']);
    // Applying an empty map claims the map itself.
    obj = apply(obj, config({}), 'alice').object;
    expect(owners(obj)).toContainEqual(['alice', 'Apply', { 'f:data': {} }]);
  });

  it('changes nothing when the same configuration is applied twice', () => {
    const first = apply(undefined, config({ a: '1' }), 'alice').object;
    const again = apply(first, config({ a: '1' }), 'alice');
    expect(again.changed).toBe(false);
    expect(again.object).toEqual(first);
  });

  it('gives an untracked object to before-first-apply', () => {
    const untracked = config({ a: '1', b: '2' }) as unknown as KubeObject;
    const error = thrown(() => apply(untracked, config({ a: 'X' }), 'bob'));
    expect(error.message).toBe(
      'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a',
    );
  });

  it('lets kubectl take over the fields its last client-side apply still matches', () => {
    const last = JSON.stringify(config({ a: '1' }));
    const created = config({ a: '1' }) as unknown as KubeObject;
    created.metadata = {
      ...created.metadata,
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': last },
    };
    track(created, updateManagedFields(cm, undefined, created, 'kubectl-client-side-apply', now));
    expect(() => apply(created, config({ a: '1' }), 'other')).not.toThrow();
    const { object } = apply(created, config({ a: '2' }), 'kubectl');
    expect(object['data']).toEqual({ a: '2' });
    expect(object.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBe(
      '{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"name":"c","namespace":"default"}}',
    );
    expect(thrown(() => apply(created, config({ a: '2' }), 'other')).code).toBe(409);
  });

  it('merges and prunes list items by key', () => {
    const dsConfig = (containers: JsonObject[]): JsonObject => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'd', namespace: 'kube-system' },
      spec: { template: { spec: { containers } } },
    });
    const a = { name: 'a', image: 'a:1' };
    const b = { name: 'b', image: 'b:1' };
    let obj = applyManagedFields(ds, undefined, dsConfig([a, b]), 'me', false, now).object;
    obj = applyManagedFields(
      ds,
      obj,
      dsConfig([{ name: 'a', image: 'a:2' }]),
      'me',
      false,
      now,
    ).object;
    const spec = (obj['spec'] as JsonObject)['template'] as JsonObject;
    expect((spec['spec'] as JsonObject)['containers']).toEqual([{ name: 'a', image: 'a:2' }]);
    expect(JSON.stringify(obj.metadata.managedFields?.[0]?.['fieldsV1'])).toBe(
      '{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}',
    );
  });

  it('rejects unknown fields, duplicate keys and managedFields in the configuration', () => {
    const unknown = thrown(() => apply(undefined, { ...config({}), spec: { x: 1 } }, 'me'));
    expect([unknown.code, unknown.reason, unknown.message]).toEqual([
      500,
      '',
      'failed to create typed patch object (default/c; /v1, Kind=ConfigMap): .spec: field not declared in schema',
    ]);
    const dup = thrown(() =>
      applyManagedFields(
        ds,
        undefined,
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          metadata: { name: 'd', namespace: 'ns' },
          spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } },
        },
        'me',
        false,
        now,
      ),
    );
    expect(dup.message).toBe(
      'failed to create typed patch object (ns/d; apps/v1, Kind=DaemonSet): .spec.template.spec.containers: duplicate entries for key [name="a"]',
    );
    const mf = thrown(() =>
      apply(undefined, { ...config({}), metadata: { name: 'c', managedFields: [] } }, 'me'),
    );
    expect([mf.code, mf.message]).toEqual([400, 'metadata.managedFields must be nil']);
  });
});

function track(obj: KubeObject, entries: JsonObject[] | undefined): void {
  if (entries) obj.metadata.managedFields = entries;
}
