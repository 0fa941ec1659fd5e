// Drives the twin with the real @kubernetes/client-node 1.4, as the product's adapter does:
// paging, selectors, typed reads, every patch flavour the adapter uses, errors and watches.
import type { V1ConfigMap } from '@kubernetes/client-node';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  Watch,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../src/index.js';
import { startTwin } from '../../src/index.js';

let twin: Twin;
let core: CoreV1Api;
let apps: AppsV1Api;
let kc: KubeConfig;

async function apiError(promise: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) return error as ApiException<string>;
    throw error;
  }
  throw new Error('expected an ApiException');
}

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs' });
  kc = new KubeConfig();
  kc.loadFromString(twin.kubeconfigYaml());
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
});

afterAll(async () => {
  await twin.close();
});

describe('client-node against the twin', () => {
  it('pages through nodes with limit and _continue', async () => {
    const names: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await core.listNode(token ? { limit: 2, _continue: token } : { limit: 2 });
      expect(page.metadata?.resourceVersion).toMatch(/^\d+$/);
      names.push(...page.items.map((n) => n.metadata!.name!));
      token = page.metadata?._continue;
      pages += 1;
    } while (token);
    expect(pages).toBe(3);
    expect(names).toEqual(['blue-1', 'blue-2', 'cp-1', 'green-1', 'green-2', 'legacy-1']);
  });

  it('filters with label selectors and reads typed objects', async () => {
    const legacy = await core.listNode({ labelSelector: 'node-pool=legacy' });
    expect(legacy.items.map((n) => n.status?.nodeInfo?.kernelVersion)).toEqual([
      '5.4.0-80-generic',
    ]);
    const ds = await apps.readNamespacedDaemonSet({ name: 'kube-proxy', namespace: 'kube-system' });
    expect(ds.spec?.template.spec?.containers[0]?.command).toEqual([
      '/usr/local/bin/kube-proxy',
      '--config=/var/lib/kube-proxy/config.conf',
      '--hostname-override=$(NODE_NAME)',
    ]);
    expect(ds.spec?.updateStrategy?.type).toBe('RollingUpdate');
  });

  it('patches a node with strategic merge and JSON patch', async () => {
    const patched = await core.patchNode(
      { name: 'green-2', body: { metadata: { labels: { 'proxy-migrate.io/mode': 'nftables' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    expect(patched.metadata?.labels?.['proxy-migrate.io/mode']).toBe('nftables');
    expect(patched.metadata?.labels?.['node-pool']).toBe('green');
    const unpatched = await core.patchNode({
      name: 'green-2',
      body: [{ op: 'remove', path: '/metadata/labels/proxy-migrate.io~1mode' }],
    });
    expect(unpatched.metadata?.labels?.['proxy-migrate.io/mode']).toBeUndefined();
  });

  it('creates and updates with server-side apply', async () => {
    const body: V1ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-proxy-nftables', namespace: 'kube-system' },
      data: { 'config.conf': 'mode: nftables' },
    };
    const ssa = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
    const args = {
      name: 'kube-proxy-nftables',
      namespace: 'kube-system',
      fieldManager: 'proxy-migrate',
      force: true,
    };
    const created = await core.patchNamespacedConfigMap({ ...args, body }, ssa);
    expect(created.metadata?.uid).toBeDefined();
    const updated = await core.patchNamespacedConfigMap(
      { ...args, body: { ...body, data: { 'config.conf': 'mode: nftables\n# v2' } } },
      ssa,
    );
    expect(updated.data?.['config.conf']).toContain('# v2');
    expect(updated.metadata?.uid).toBe(created.metadata?.uid);
  });

  it('throws ApiException 404 with a Status body', async () => {
    const error = await apiError(core.readNode({ name: 'nope' }));
    expect(error.code).toBe(404);
    expect(JSON.parse(error.body)).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'nodes "nope" not found',
    });
  });

  it('answers 409 Conflict for a stale resourceVersion', async () => {
    const cm = await core.readNamespacedConfigMap({ name: 'kube-proxy', namespace: 'kube-system' });
    const fresh = await core.replaceNamespacedConfigMap({
      name: 'kube-proxy',
      namespace: 'kube-system',
      body: { ...cm, metadata: { ...cm.metadata, annotations: { touched: 'yes' } } },
    });
    expect(fresh.metadata?.resourceVersion).not.toBe(cm.metadata?.resourceVersion);
    const error = await apiError(
      core.replaceNamespacedConfigMap({
        name: 'kube-proxy',
        namespace: 'kube-system',
        body: { ...cm, data: {} },
      }),
    );
    expect(error.code).toBe(409);
    expect(JSON.parse(error.body)).toMatchObject({ reason: 'Conflict', code: 409 });
  });

  it('answers 409 Conflict for a patch or an apply that carries a stale resourceVersion', async () => {
    const path = `${twin.url}/api/v1/namespaces/kube-system/configmaps/kube-proxy?fieldManager=test`;
    const before = await core.readNamespacedConfigMap({
      name: 'kube-proxy',
      namespace: 'kube-system',
    });
    const stale = '1';
    expect(before.metadata?.resourceVersion).not.toBe(stale);
    const attempts: [string, unknown][] = [
      [
        'application/json-patch+json',
        [
          { op: 'replace', path: '/metadata/resourceVersion', value: stale },
          { op: 'replace', path: '/data', value: {} },
        ],
      ],
      ['application/merge-patch+json', { metadata: { resourceVersion: stale }, data: {} }],
      ['application/strategic-merge-patch+json', { metadata: { resourceVersion: stale } }],
      [
        'application/apply-patch+yaml',
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'kube-proxy', namespace: 'kube-system', resourceVersion: stale },
          data: {},
        },
      ],
    ];
    for (const [type, patch] of attempts) {
      const res = await fetch(path, {
        method: 'PATCH',
        headers: { 'content-type': type },
        body: JSON.stringify(patch),
      });
      expect(res.status, type).toBe(409);
      expect(await res.json(), type).toMatchObject({
        kind: 'Status',
        reason: 'Conflict',
        code: 409,
        message:
          'Operation cannot be fulfilled on configmaps "kube-proxy": the object has been modified; please apply your changes to the latest version and try again',
        details: { name: 'kube-proxy', kind: 'configmaps' },
      });
    }
    const after = await core.readNamespacedConfigMap({
      name: 'kube-proxy',
      namespace: 'kube-system',
    });
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
  });

  it('streams watch events from a list resourceVersion', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const events: [string, string][] = [];
    let resolveDone: (value: unknown) => void = () => undefined;
    const finished = new Promise((resolve) => (resolveDone = resolve));
    const controller = await new Watch(kc).watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: list.metadata?.resourceVersion, timeoutSeconds: 5 },
      (type, obj: V1ConfigMap) => {
        events.push([type, obj.metadata?.name ?? '']);
        if (events.length === 2) resolveDone(undefined);
      },
      (err) => resolveDone(err),
    );
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'watched' }, data: { a: '1' } },
    });
    await core.patchNamespacedConfigMap(
      { name: 'watched', namespace: 'default', body: { data: { a: '2' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await finished;
    controller.abort();
    expect(events).toEqual([
      ['ADDED', 'watched'],
      ['MODIFIED', 'watched'],
    ]);
  });

  it('answers 410 Expired for a continue token older than the compacted history', async () => {
    const page = await core.listNode({ limit: 2 });
    const token = page.metadata!._continue!;
    await core.patchNode(
      { name: 'cp-1', body: { metadata: { annotations: { bump: '1' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    twin.store.compact();
    const error = await apiError(core.listNode({ limit: 2, _continue: token }));
    expect(error.code).toBe(410);
    expect(JSON.parse(error.body)).toMatchObject({ reason: 'Expired', code: 410 });
  });
});
