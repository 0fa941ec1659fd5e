// fieldValidation and managedFields on the kinds other areas added: Leases (MicroTime fields kept
// by the schema, recorded per manager, applied by kubectl), events.k8s.io/v1 Events (judged and
// tracked in their own shape) and the access reviews (decoded by the generic create path), through
// the real @kubernetes/client-node and kubectl, and raw HTTP where the client hides status codes.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Lease } from '@kubernetes/client-node';
import {
  CoordinationV1Api,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  V1MicroTime,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from './harness.js';
import { startHarness } from './harness.js';

let h: Harness;
let dir: string;
let objects: KubernetesObjectApi;
let core: CoreV1Api;
let coordination: CoordinationV1Api;

beforeAll(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), 'twin-strict-kinds-'));
  const kc = new KubeConfig();
  kc.loadFromString(h.kubeconfigYaml);
  objects = kc.makeApiClient(KubernetesObjectApi);
  core = kc.makeApiClient(CoreV1Api);
  coordination = kc.makeApiClient(CoordinationV1Api);
});

afterAll(async () => {
  await h.close();
});

type Entry = Record<string, unknown>;
const managers = (o: { metadata?: { managedFields?: unknown[] } }) =>
  ((o.metadata?.managedFields ?? []) as Entry[]).map((e) => [
    e['manager'],
    e['operation'],
    e['apiVersion'],
  ]);
const fields = (o: { metadata?: { managedFields?: unknown[] } }, i = 0) =>
  ((o.metadata?.managedFields ?? []) as Entry[])[i]?.['fieldsV1'];

async function post(path: string, body: unknown, query = ''): Promise<Response> {
  return fetch(`${h.url}${path}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('Leases', () => {
  it('keeps the MicroTime fields and records the client-node writer with them', async () => {
    const lease: V1Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'lock', namespace: 'kube-system' },
      spec: {
        holderIdentity: 'proxy-migrate-bot',
        leaseDurationSeconds: 30,
        renewTime: new V1MicroTime('2026-01-02T03:04:05.678Z'),
      },
    };
    const created = await coordination.createNamespacedLease({
      namespace: 'kube-system',
      body: lease,
      fieldManager: 'proxy-migrate',
      fieldValidation: 'Strict',
    });
    expect(String(created.spec?.renewTime as unknown)).toBe('2026-01-02T03:04:05.678000Z');
    expect(managers(created)).toEqual([['proxy-migrate', 'Update', 'coordination.k8s.io/v1']]);
    expect(fields(created)).toEqual({
      'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {}, 'f:renewTime': {} },
    });
  });

  it('applies a MicroTime with kubectl --server-side and rejects an unknown spec field', async () => {
    const config = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'lock', namespace: 'kube-system' },
      spec: { acquireTime: '2026-01-02T03:04:00.123456Z' },
    };
    const path = join(dir, 'lease.json');
    await writeFile(path, JSON.stringify(config));
    const r = await h.kubectl('apply', '--server-side', '-f', path);
    expect(r.code, r.stderr).toBe(0);
    const got = await h.kubectl(
      'get',
      'lease',
      'lock',
      '-n',
      'kube-system',
      '-o',
      'json',
      '--show-managed-fields',
    );
    const stored = JSON.parse(got.stdout) as V1Lease;
    expect(stored.spec).toMatchObject({
      acquireTime: '2026-01-02T03:04:00.123456Z',
      renewTime: '2026-01-02T03:04:05.678000Z',
    });
    // Apply entries sort before Update ones (managedfields' sortEncodedManagedFields).
    expect(managers(stored)).toEqual([
      ['kubectl', 'Apply', 'coordination.k8s.io/v1'],
      ['proxy-migrate', 'Update', 'coordination.k8s.io/v1'],
    ]);
    const typo = join(dir, 'typo.json');
    const bad = { ...config, metadata: { name: 'typo' }, spec: { holder: 'x' } };
    await writeFile(typo, JSON.stringify(bad));
    const refused = await h.kubectl('create', '-n', 'kube-system', '-f', typo);
    expect(refused.stderr.trim()).toBe(
      `Error from server (BadRequest): error when creating "${typo}": Lease in version "v1" cannot be handled as a Lease: strict decoding error: unknown field "spec.holder"`,
    );
  });
});

describe('events.k8s.io/v1 Events', () => {
  const event = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: 'default' },
    eventTime: '2026-01-02T03:04:05.000000Z',
    reportingController: 'proxy-migrate.io/bot',
    reportingInstance: 'bot-0',
    action: 'Cutover',
    reason: 'Started',
    regarding: { kind: 'Node', name: 'blue-1' },
    note: 'cutover started',
    type: 'Normal',
    ...extra,
  });

  it('judges a body by the view’s schema: note is known, message is not', async () => {
    const strict = await post(
      '/apis/events.k8s.io/v1/namespaces/default/events',
      event('strict', { message: 'core field' }),
      '?fieldValidation=Strict',
    );
    expect(strict.status).toBe(400);
    expect(((await strict.json()) as { message: string }).message).toBe(
      'Event in version "v1" cannot be handled as a Event: strict decoding error: unknown field "message"',
    );
    // KubernetesObjectApi sends no fieldValidation: the server's Warn drops the field.
    const created = (await objects.create(
      event('warned', { message: 'core field' }),
    )) as unknown as Record<string, unknown>;
    expect(created['note']).toBe('cutover started');
    expect(created['message']).toBeUndefined();
  });

  it('records managedFields in the events.k8s.io/v1 shape, also when read as a core Event', async () => {
    const res = await post(
      '/apis/events.k8s.io/v1/namespaces/default/events',
      event('tracked'),
      '?fieldManager=proxy-migrate',
    );
    expect(res.status).toBe(201);
    const read = await core.readNamespacedEvent({ name: 'tracked', namespace: 'default' });
    expect(read.message).toBe('cutover started');
    expect(managers(read)).toEqual([['proxy-migrate', 'Update', 'events.k8s.io/v1']]);
    const owned = Object.keys(fields(read) as object);
    expect(owned).toEqual(
      expect.arrayContaining(['f:note', 'f:regarding', 'f:reportingController']),
    );
    expect(owned).not.toContain('f:message');
  });
});

describe('access reviews', () => {
  const review = (kind: string, spec: Record<string, unknown>) => ({
    apiVersion: 'authorization.k8s.io/v1',
    kind,
    spec,
  });
  const path = (plural: string) => `/apis/authorization.k8s.io/v1/${plural}`;

  it('answers 400 to an unknown field with fieldValidation=Strict', async () => {
    const attrs = { resourceAttributes: { verb: 'get', resource: 'pods' }, verbose: true };
    const res = await post(
      path('selfsubjectaccessreviews'),
      review('SelfSubjectAccessReview', attrs),
      '?fieldValidation=Strict',
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: strict decoding error: unknown field "spec.verbose"',
    );
    const rules = await post(
      path('selfsubjectrulesreviews'),
      review('SelfSubjectRulesReview', { namespace: 'default', all: true }),
      '?fieldValidation=Strict',
    );
    expect(rules.status).toBe(400);
    expect(((await rules.json()) as { message: string }).message).toContain(
      'strict decoding error: unknown field "spec.all"',
    );
  });

  it('keeps a SubjectAccessReview’s user and groups and drops what its type lacks', async () => {
    const spec = {
      user: 'alice',
      groups: ['ops'],
      userName: 'alice',
      resourceAttributes: { verb: 'patch', resource: 'daemonsets', group: 'apps' },
    };
    const res = await post(path('subjectaccessreviews'), review('SubjectAccessReview', spec));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe('299 - "unknown field \\"spec.userName\\""');
    const body = (await res.json()) as { spec: Record<string, unknown>; status: unknown };
    expect(body.spec).toEqual({
      user: 'alice',
      groups: ['ops'],
      resourceAttributes: { verb: 'patch', resource: 'daemonsets', group: 'apps' },
    });
    expect(body.status).toMatchObject({ allowed: true });
  });
});
