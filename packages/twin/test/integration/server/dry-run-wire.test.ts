// Server-side dry runs (dryRun=All) through the real kubectl and @kubernetes/client-node: the same
// strategy as the real write (validation, generation, the DaemonSet's template-generation
// annotation), nothing persisted, and the answer the real write would give.
// The apiserver runs a dry run through the same registry code and only skips the storage write:
// staging/src/k8s.io/apiserver/pkg/registry/generic/registry/dryrun.go (DryRunnableStorage.Create
// and GuaranteedUpdate copy the would-be object into the answer), so a dry-run update keeps the
// stored resourceVersion. generation and the annotation come from
// pkg/registry/apps/daemonset/strategy.go (PrepareForCreate, PrepareForUpdate).
// kubectl's `(server dry run)` suffix: staging/src/k8s.io/kubectl/pkg/cmd/util/printing.go
// (PrintFlagsWithDryRunStrategy).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesObject, V1DaemonSet } from '@kubernetes/client-node';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../../src/index.js';
import { startTwin } from '../../../src/index.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlWith } from '../../../src/testing/kubectl.js';

let twin: Twin;
let dir: string;
let kubectl: Kubectl;
let objects: KubernetesObjectApi;
let apps: AppsV1Api;
let core: CoreV1Api;

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', controllers: false });
  dir = await mkdtemp(join(tmpdir(), 'twin-dry-run-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 25_000 });
  const kc = new KubeConfig();
  kc.loadFromString(twin.kubeconfigYaml());
  objects = kc.makeApiClient(KubernetesObjectApi);
  apps = kc.makeApiClient(AppsV1Api);
  core = kc.makeApiClient(CoreV1Api);
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
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

async function file(name: string, body: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(body));
  return path;
}

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const templateGeneration = 'deprecated.daemonset.template.generation';

const daemonSet = (name: string, image = 'agent:1', selectorApp = 'agent'): V1DaemonSet => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name, namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: selectorApp } },
    template: {
      metadata: { labels: { app: 'agent' } },
      spec: { containers: [{ name: 'agent', image }] },
    },
  },
});

/** What two answers for the same object may differ in: timestamps in managedFields. */
function withoutTimes<T extends KubernetesObject>(obj: T): T {
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      managedFields: obj.metadata?.managedFields?.map((f) => ({ ...f, time: undefined })),
    },
  };
}

describe('an invalid dry run gets the same 422 as the real write', () => {
  const invalid: (KubernetesObject & Record<string, unknown>)[] = [
    daemonSet('dry-mismatch', 'agent:1', 'other') as KubernetesObject & Record<string, unknown>,
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dry-bad-key', namespace: 'default' },
      data: { 'a b': '1' },
    },
    {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'dry-lease', namespace: 'default' },
      spec: { leaseDurationSeconds: 0 },
    },
  ];

  it.each(invalid.map((body) => [body.kind, body] as const))(
    'create %s (client-node)',
    async (_kind, body) => {
      const dry = await apiError(objects.create(body, undefined, 'All'));
      const real = await apiError(objects.create(body));
      expect(dry.code).toBe(422);
      expect(real.code).toBe(422);
      expect(JSON.parse(dry.body)).toEqual(JSON.parse(real.body));
      expect(JSON.parse(dry.body)).toMatchObject({ reason: 'Invalid' });
    },
  );

  it('create, as kubectl create --dry-run=server prints it', async () => {
    const path = await file('dry-bad-key.json', invalid[1]);
    const dry = await kubectl('create', '--dry-run=server', '-f', path);
    const real = await kubectl('create', '-f', path);
    expect(dry.code).toBe(1);
    expect(real.code).toBe(1);
    expect(dry.stderr).toBe(real.stderr);
    expect(dry.stderr).toMatch(
      /^The ConfigMap "dry-bad-key" is invalid: data\[a b\]: Invalid value/,
    );
  });

  it('update: a dry-run PUT and PATCH that change the selector are refused as the real ones', async () => {
    const created = await apps.createNamespacedDaemonSet({
      namespace: 'default',
      body: daemonSet('immutable'),
    });
    const changed = daemonSet('immutable', 'agent:1', 'agent');
    changed.spec!.selector = { matchLabels: { app: 'agent', tier: 'x' } };
    changed.spec!.template.metadata!.labels = { app: 'agent', tier: 'x' };
    changed.metadata!.resourceVersion = created.metadata?.resourceVersion ?? '';
    const put = (dryRun?: string) =>
      apiError(
        apps.replaceNamespacedDaemonSet({
          name: 'immutable',
          namespace: 'default',
          body: changed,
          ...(dryRun === undefined ? {} : { dryRun }),
        }),
      );
    const dryPut = await put('All');
    const realPut = await put();
    expect(dryPut.code).toBe(422);
    expect(JSON.parse(dryPut.body)).toEqual(JSON.parse(realPut.body));
    expect(JSON.parse(dryPut.body)).toMatchObject({
      details: { causes: [{ field: 'spec.selector', reason: 'FieldValueInvalid' }] },
    });
    const patch = (dryRun?: string) =>
      apiError(
        apps.patchNamespacedDaemonSet(
          {
            name: 'immutable',
            namespace: 'default',
            body: { spec: { selector: changed.spec!.selector, template: changed.spec!.template } },
            ...(dryRun === undefined ? {} : { dryRun }),
          },
          mergePatch,
        ),
      );
    const dryPatch = await patch('All');
    expect(dryPatch.code).toBe(422);
    expect(JSON.parse(dryPatch.body)).toEqual(JSON.parse((await patch()).body));
  });
});

describe('a valid dry-run update', () => {
  let stored: V1DaemonSet;

  beforeAll(async () => {
    await apps.createNamespacedDaemonSet({ namespace: 'default', body: daemonSet('agent') });
    stored = await apps.readNamespacedDaemonSet({ name: 'agent', namespace: 'default' });
    expect(stored.metadata).toMatchObject({
      generation: 1,
      annotations: { [templateGeneration]: '1' },
    });
  });

  async function unchanged(): Promise<void> {
    const now = await apps.readNamespacedDaemonSet({ name: 'agent', namespace: 'default' });
    expect(now.metadata?.resourceVersion).toBe(stored.metadata?.resourceVersion);
    expect(now.metadata?.generation).toBe(stored.metadata?.generation);
    expect(now.metadata?.annotations).toEqual(stored.metadata?.annotations);
    expect(now.spec?.template.spec?.containers[0]?.image).toBe('agent:1');
    expect(now.metadata?.managedFields).toEqual(stored.metadata?.managedFields);
  }

  it('PUT answers with the bumped generation and template generation, and stores nothing', async () => {
    const body = structuredClone(stored);
    body.spec!.template.spec!.containers[0]!.image = 'agent:2';
    const dry = await apps.replaceNamespacedDaemonSet({
      name: 'agent',
      namespace: 'default',
      body,
      dryRun: 'All',
    });
    expect(dry.metadata?.generation).toBe(2);
    expect(dry.metadata?.annotations?.[templateGeneration]).toBe('2');
    expect(dry.spec?.template.spec?.containers[0]?.image).toBe('agent:2');
    // The would-be object keeps the stored resourceVersion: no write happened (dryrun.go).
    expect(dry.metadata?.resourceVersion).toBe(stored.metadata?.resourceVersion);
    await unchanged();
  });

  it('PATCH answers with the bumped generation and template generation, and stores nothing', async () => {
    const dry = await apps.patchNamespacedDaemonSet(
      {
        name: 'agent',
        namespace: 'default',
        body: {
          spec: { template: { spec: { containers: [{ name: 'agent', image: 'agent:3' }] } } },
        },
        dryRun: 'All',
      },
      mergePatch,
    );
    expect(dry.metadata?.generation).toBe(2);
    expect(dry.metadata?.annotations?.[templateGeneration]).toBe('2');
    expect(dry.spec?.template.spec?.containers[0]?.image).toBe('agent:3');
    expect(dry.metadata?.resourceVersion).toBe(stored.metadata?.resourceVersion);
    await unchanged();
  });

  it('a metadata-only dry-run PATCH leaves generation and template generation alone', async () => {
    const dry = await apps.patchNamespacedDaemonSet(
      {
        name: 'agent',
        namespace: 'default',
        body: { metadata: { labels: { team: 'net' } } },
        dryRun: 'All',
      },
      mergePatch,
    );
    expect(dry.metadata?.labels).toEqual({ team: 'net' });
    expect(dry.metadata?.generation).toBe(1);
    expect(dry.metadata?.annotations?.[templateGeneration]).toBe('1');
    await unchanged();
  });

  it('answers exactly as the real PATCH then does, but for the new resourceVersion', async () => {
    const body = {
      spec: { template: { spec: { containers: [{ name: 'agent', image: 'agent:4' }] } } },
    };
    const dry = await apps.patchNamespacedDaemonSet(
      { name: 'agent', namespace: 'default', body, dryRun: 'All' },
      mergePatch,
    );
    await unchanged();
    const real = await apps.patchNamespacedDaemonSet(
      { name: 'agent', namespace: 'default', body },
      mergePatch,
    );
    expect(real.metadata?.resourceVersion).not.toBe(stored.metadata?.resourceVersion);
    expect(withoutTimes({ ...dry, metadata: { ...dry.metadata, resourceVersion: 'x' } })).toEqual(
      withoutTimes({ ...real, metadata: { ...real.metadata, resourceVersion: 'x' } }),
    );
    const after = await apps.readNamespacedDaemonSet({ name: 'agent', namespace: 'default' });
    expect(after.metadata).toMatchObject({
      generation: 2,
      annotations: { [templateGeneration]: '2' },
    });
  });
});

describe('kubectl --dry-run=server', () => {
  it('apply: created, then unchanged and configured, each "(server dry run)", storing nothing', async () => {
    const path = await file('web.json', daemonSet('web'));
    const dry = await kubectl('apply', '--dry-run=server', '-f', path);
    expect(dry).toMatchObject({ code: 0, stdout: 'daemonset.apps/web created (server dry run)\n' });
    const missing = await kubectl('get', 'ds', 'web');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('Error from server (NotFound): daemonsets.apps "web" not found\n');

    expect((await kubectl('apply', '-f', path)).stdout).toBe('daemonset.apps/web created\n');
    const before = await kubectl(
      'get',
      'ds',
      'web',
      '-o',
      `jsonpath={.metadata.resourceVersion} {.metadata.generation} {.metadata.annotations.deprecated\\.daemonset\\.template\\.generation}`,
    );
    expect((await kubectl('apply', '--dry-run=server', '-f', path)).stdout).toBe(
      'daemonset.apps/web unchanged (server dry run)\n',
    );
    const changed = await file('web-2.json', daemonSet('web', 'agent:2'));
    const configured = await kubectl('apply', '--dry-run=server', '-f', changed, '-o', 'json');
    expect(configured.code).toBe(0);
    const obj = JSON.parse(configured.stdout) as V1DaemonSet;
    expect(obj.metadata).toMatchObject({
      generation: 2,
      annotations: { [templateGeneration]: '2' },
    });
    expect((await kubectl('apply', '--dry-run=server', '-f', changed)).stdout).toBe(
      'daemonset.apps/web configured (server dry run)\n',
    );
    const after = await kubectl(
      'get',
      'ds',
      'web',
      '-o',
      `jsonpath={.metadata.resourceVersion} {.metadata.generation} {.metadata.annotations.deprecated\\.daemonset\\.template\\.generation}`,
    );
    expect(after.stdout).toBe(before.stdout);
    expect(after.stdout).toMatch(/^\d+ 1 1$/);
  });

  it('apply --server-side: serverside-applied (server dry run)', async () => {
    const path = await file('ssa.json', daemonSet('ssa'));
    const r = await kubectl('apply', '--server-side', '--dry-run=server', '-f', path);
    expect(r).toMatchObject({
      code: 0,
      stdout: 'daemonset.apps/ssa serverside-applied (server dry run)\n',
    });
    expect((await kubectl('get', 'ds', 'ssa')).code).toBe(1);
  });

  it('create -f and create configmap (a protobuf body): created (server dry run), nothing stored', async () => {
    const path = await file('cm.json', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'from-file' },
      data: { a: '1' },
    });
    const fromFile = await kubectl('create', '--dry-run=server', '-f', path);
    expect(fromFile).toMatchObject({
      code: 0,
      stdout: 'configmap/from-file created (server dry run)\n',
    });
    const typed = await kubectl(
      'create',
      'configmap',
      'typed',
      '--from-literal=a=1',
      '--dry-run=server',
      '-o',
      'json',
    );
    expect(typed.code).toBe(0);
    const cm = JSON.parse(typed.stdout) as KubernetesObject & { data: Record<string, string> };
    expect(cm.data).toEqual({ a: '1' });
    // A dry-run create answers with a uid and creationTimestamp but no resourceVersion.
    expect(cm.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(cm.metadata?.creationTimestamp).toBeDefined();
    expect(cm.metadata?.resourceVersion).toBeUndefined();
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    expect(list.items.map((i) => i.metadata?.name)).not.toContain('typed');
    expect(list.items.map((i) => i.metadata?.name)).not.toContain('from-file');
  });
});
