// Server-side apply and managedFields through the real kubectl: `apply --server-side` (with and
// without --force-conflicts), `get --show-managed-fields`, field ownership handed over between
// managers, pruning, and the no-op re-apply.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Harness } from './harness.js';
import { startHarness } from './harness.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';

let h: Harness;
let dir: string;

beforeAll(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), 'twin-apply-'));
});

afterAll(async () => {
  await h.close();
});

async function file(name: string, obj: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(obj));
  return path;
}

const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data,
});

const daemonSet = (image: string) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'proxy-canary', namespace: 'kube-system' },
  spec: {
    selector: { matchLabels: { app: 'proxy-canary' } },
    template: {
      metadata: { labels: { app: 'proxy-canary' } },
      spec: { containers: [{ name: 'kube-proxy', image }] },
    },
  },
});

interface Entry {
  manager: string;
  operation: string;
  fieldsV1: unknown;
}

async function managed(...target: string[]): Promise<Entry[]> {
  const r = await h.kubectl('get', ...target, '-o', 'yaml', '--show-managed-fields');
  expect(r.code, r.stderr).toBe(0);
  return (
    (parse(r.stdout) as { metadata: { managedFields?: Entry[] } }).metadata.managedFields ?? []
  );
}

describe('kubectl apply --server-side', () => {
  it('creates, then updates, with kubectl owning exactly what it applied', async () => {
    const path = await file('ssa.json', configMap('ssa', { a: '1' }));
    const created = await h.kubectl('apply', '--server-side', '-f', path);
    expect(created.stdout.trim()).toBe('configmap/ssa serverside-applied');
    const entries = await managed('cm', 'ssa');
    expect(entries.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['kubectl', 'Apply', { 'f:data': { 'f:a': {} } }],
    ]);
  });

  it('changes nothing when the same configuration is applied again', async () => {
    const path = await file('same.json', configMap('same', { a: '1' }));
    await h.kubectl('apply', '--server-side', '-f', path);
    const rv = async () =>
      (await h.kubectl('get', 'cm', 'same', '-o', 'jsonpath={.metadata.resourceVersion}')).stdout;
    const before = await rv();
    expect((await h.kubectl('apply', '--server-side', '-f', path)).code).toBe(0);
    expect(await rv()).toBe(before);
  });

  it('refuses to take a field another manager owns, as kubectl prints it', async () => {
    await h.kubectl('apply', '-f', await file('csa.json', daemonSet('kube-proxy:v1.33.4')));
    const r = await h.kubectl(
      'apply',
      '--server-side',
      '--field-manager=proxy-migrate',
      '-f',
      await file('ssa-ds.json', daemonSet('kube-proxy:v1.34.1')),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.template.spec.containers[name="kube-proxy"].image\n' +
        'Please review the fields above--they currently have other managers.',
    );
    const image = await h.kubectl(
      '-n',
      'kube-system',
      'get',
      'ds',
      'proxy-canary',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}',
    );
    expect(image.stdout).toBe('kube-proxy:v1.33.4');
  });

  it('takes the field with --force-conflicts; kubectl then folds the client-side fields in', async () => {
    const r = await h.kubectl(
      'apply',
      '--server-side',
      '--field-manager=proxy-migrate',
      '--force-conflicts',
      '-f',
      join(dir, 'ssa-ds.json'),
    );
    expect(r.stdout.trim()).toBe('daemonset.apps/proxy-canary serverside-applied');
    // kubectl's csaupgrade then hands kubectl-client-side-apply's fields to the server-side
    // manager (a JSON patch of managedFields) and applies again, which prunes what the
    // configuration no longer names: the manager ends up owning exactly its configuration.
    const entries = await managed('-n', 'kube-system', 'ds', 'proxy-canary');
    expect(entries.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      [
        'proxy-migrate',
        'Apply',
        {
          'f:spec': {
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"kube-proxy"}': { '.': {}, 'f:image': {}, 'f:name': {} },
                },
              },
            },
          },
        },
      ],
    ]);
    const container = await h.kubectl(
      '-n',
      'kube-system',
      'get',
      'ds',
      'proxy-canary',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].imagePullPolicy}',
    );
    expect(container.stdout).toBe('kube-proxy:v1.34.1 IfNotPresent');
  });

  it('lets kubectl itself move a client-side applied object to server-side apply', async () => {
    await h.kubectl('apply', '-f', await file('moved.json', configMap('moved', { a: '1' })));
    const r = await h.kubectl(
      'apply',
      '--server-side',
      '-f',
      await file('moved2.json', configMap('moved', { a: '2' })),
    );
    expect(r.code, r.stderr).toBe(0);
    const data = await h.kubectl('get', 'cm', 'moved', '-o', 'jsonpath={.data.a}');
    expect(data.stdout).toBe('2');
  });

  it('prunes a field its only owner stops applying, and keeps one another manager co-owns', async () => {
    await h.kubectl(
      'apply',
      '--server-side',
      '--field-manager=alice',
      '-f',
      await file('p1.json', configMap('pruned', { a: '1', shared: 's' })),
    );
    await h.kubectl(
      'apply',
      '--server-side',
      '--field-manager=bob',
      '-f',
      await file('p2.json', configMap('pruned', { shared: 's' })),
    );
    const r = await h.kubectl(
      'apply',
      '--server-side',
      '--field-manager=alice',
      '-f',
      await file('p3.json', configMap('pruned', { other: 'o' })),
    );
    expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse((await h.kubectl('get', 'cm', 'pruned', '-o', 'json')).stdout) as {
      data: Record<string, string>;
    };
    expect(data.data).toEqual({ shared: 's', other: 'o' });
    const entries = await managed('cm', 'pruned');
    const byName = entries.sort((a, b) => a.manager.localeCompare(b.manager));
    expect(byName.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['alice', { 'f:data': { 'f:other': {} } }],
      ['bob', { 'f:data': { 'f:shared': {} } }],
    ]);
  });

  it('shows the Update managers kubectl records: create, label, patch', async () => {
    await h.kubectl('create', '-f', await file('upd.json', configMap('upd', { a: '1' })));
    await h.kubectl('label', 'cm', 'upd', 'tier=canary');
    await h.kubectl('patch', 'cm', 'upd', '-p', '{"data":{"b":"2"}}');
    const entries = await managed('cm', 'upd');
    expect(entries.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['kubectl-create', 'Update', { 'f:data': { '.': {}, 'f:a': {} } }],
      ['kubectl-label', 'Update', { 'f:metadata': { 'f:labels': { '.': {}, 'f:tier': {} } } }],
      ['kubectl-patch', 'Update', { 'f:data': { 'f:b': {} } }],
    ]);
  });
});
