// The rest of issue 7's API-server list through the real @kubernetes/client-node, where only
// kubectl or raw HTTP covered it before: the Warning header on an unknown field as the client
// receives it, access reviews (AuthorizationV1Api), garbage collection with Orphan and
// Foreground propagation (deleteNamespacedDaemonSet), and pods/eviction with a
// PodDisruptionBudget (createNamespacedPodEviction, PolicyV1Api).
// Facts used:
//   - staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go and fieldmanager: with the
//     default fieldValidation (Warn) an unknown field is dropped and reported as
//     `299 - "unknown field \"<path>\""` in a Warning header (warning.AddWarning).
//   - An AlwaysAllow authorizer answers every SelfSubjectAccessReview allowed
//     (staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go), and
//     pkg/apis/authorization/validation/validation.go refuses a spec with neither attributes.
//   - pkg/controller/garbagecollector/garbagecollector.go: Orphan removes the dependants'
//     ownerReferences and keeps them (orphanDependents); Foreground keeps the owner with the
//     foregroundDeletion finalizer and a deletionTimestamp until its dependants are gone.
//   - pkg/registry/core/pod/storage/eviction.go: 201 Success when the budget allows, 429
//     TooManyRequests with a DisruptionBudget cause when it does not.
import type { V1Pod } from '@kubernetes/client-node';
import {
  ApiException,
  AppsV1Api,
  AuthorizationV1Api,
  CoreV1Api,
  KubeConfig,
  Observable,
  PatchStrategy,
  PolicyV1Api,
  setHeaderOptions,
} from '@kubernetes/client-node';
import type { RequestContext, ResponseContext } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../src/testing/wait.js';
import type { LiveTwin } from '../controllers/live-twin.js';
import { startLiveTwin } from '../controllers/live-twin.js';
import type { Harness } from './harness.js';
import { startHarness } from './harness.js';

/** True once a read answers 404; undefined while the object is still there. */
async function gone(read: () => Promise<unknown>): Promise<true | undefined> {
  try {
    await read();
    return undefined;
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return true;
    throw error;
  }
}

async function apiError(promise: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) return error as ApiException<string>;
    throw error;
  }
  throw new Error('expected an ApiException');
}

function clientFor(kubeconfigYaml: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml);
  return kc;
}

/** Per-call client-node options that record each response's headers. */
function recordHeaders(into: Headers[]) {
  return {
    middleware: [
      {
        pre: (ctx: RequestContext) => new Observable(Promise.resolve(ctx)),
        post: (res: ResponseContext) => {
          into.push(new Headers(res.headers));
          return new Observable(Promise.resolve(res));
        },
      },
    ],
    middlewareMergeStrategy: 'append' as const,
  };
}

describe('against the API server alone', () => {
  let h: Harness;
  let kc: KubeConfig;

  beforeAll(async () => {
    h = await startHarness();
    kc = clientFor(h.kubeconfigYaml);
  });
  afterAll(async () => {
    await h.close();
  });

  it('gives client-node the Warning header for an unknown field, and drops the field', async () => {
    // The typed client's serializer drops unknown fields of a typed body, but a patch body goes
    // as written: a merge patch with an unknown field under the server default (Warn).
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'warned' }, data: { a: '1' } },
    });
    const patch = (body: object, headers: Headers[]) =>
      core.patchNamespacedConfigMap(
        { name: 'warned', namespace: 'default', body },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch, recordHeaders(headers)),
      );
    const warned: Headers[] = [];
    const patched = await patch({ data: { b: '2' }, spec: { mode: 'nftables' } }, warned);
    expect(warned.map((x) => x.get('warning'))).toEqual(['299 - "unknown field \\"spec\\""']);
    expect(patched.data).toEqual({ a: '1', b: '2' });
    expect((patched as Record<string, unknown>)['spec']).toBeUndefined();
    // Without unknown fields there is no Warning.
    const clean: Headers[] = [];
    await patch({ data: { c: '3' } }, clean);
    expect(clean.map((x) => x.get('warning'))).toEqual([null]);
  });

  it('honours client-node’s fieldValidation on a patch: Strict is a 422 on the patch, Ignore is silent', async () => {
    // A strict patch is decoded after it is applied, so the error names the patch
    // (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go, strictErrs).
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'validated' }, data: { a: '1' } },
    });
    const patch = (fieldValidation: string, headers: Headers[]) =>
      core.patchNamespacedConfigMap(
        { name: 'validated', namespace: 'default', body: { bogus: 1 }, fieldValidation },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch, recordHeaders(headers)),
      );
    const strict = await apiError(patch('Strict', []));
    expect(strict.code).toBe(422);
    const status = JSON.parse(strict.body) as { message: string; reason: string };
    expect(status.reason).toBe('Invalid');
    expect(status.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{.*\\"bogus\\":1.*\}": strict decoding error: unknown field "bogus"$/,
    );
    const ignored: Headers[] = [];
    const patched = await patch('Ignore', ignored);
    expect(ignored.map((x) => x.get('warning'))).toEqual([null]);
    expect((patched as Record<string, unknown>)['bogus']).toBeUndefined();
    const warned: Headers[] = [];
    await patch('Warn', warned);
    expect(warned.map((x) => x.get('warning'))).toEqual(['299 - "unknown field \\"bogus\\""']);
  });

  it('answers SelfSubjectAccessReviews allowed, and SelfSubjectRulesReviews with * rules', async () => {
    const authz = kc.makeApiClient(AuthorizationV1Api);
    const review = await authz.createSelfSubjectAccessReview({
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: {
          resourceAttributes: {
            namespace: 'kube-system',
            verb: 'patch',
            group: 'apps',
            resource: 'daemonsets',
            name: 'kube-proxy',
          },
        },
      },
    });
    expect(review.status?.allowed).toBe(true);
    expect(review.spec.resourceAttributes).toMatchObject({ verb: 'patch', resource: 'daemonsets' });
    const rules = await authz.createSelfSubjectRulesReview({
      body: { spec: { namespace: 'kube-system' } },
    });
    expect(rules.status?.resourceRules).toContainEqual(
      expect.objectContaining({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }),
    );
    expect(rules.status?.incomplete).toBe(false);
  });

  it('refuses a SelfSubjectAccessReview with neither resource nor non-resource attributes (422)', async () => {
    const authz = kc.makeApiClient(AuthorizationV1Api);
    const error = await apiError(authz.createSelfSubjectAccessReview({ body: { spec: {} } }));
    expect(error.code).toBe(422);
    expect(JSON.parse(error.body)).toMatchObject({
      reason: 'Invalid',
      details: {
        group: 'authorization.k8s.io',
        kind: 'SelfSubjectAccessReview',
        causes: [
          {
            reason: 'FieldValueInvalid',
            field: 'spec.resourceAttributes',
            message: expect.stringContaining(
              'exactly one of nonResourceAttributes or resourceAttributes must be specified',
            ),
          },
        ],
      },
    });
  });
});

describe('with the controllers', () => {
  let live: LiveTwin | undefined;
  afterEach(async () => {
    await live?.close();
    live = undefined;
  });

  const proxyPods = async (core: CoreV1Api): Promise<V1Pod[]> =>
    (
      await core.listNamespacedPod({
        namespace: 'kube-system',
        labelSelector: 'k8s-app=kube-proxy',
      })
    ).items;

  it('Orphan (client-node deleteNamespacedDaemonSet): the pods stay, without ownerReferences', async () => {
    live = await startLiveTwin();
    const kc = clientFor(live.twin.kubeconfigYaml());
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    const before = await eventually('six kube-proxy pods', async () => {
      const pods = await proxyPods(core);
      return pods.length === 6 ? pods : undefined;
    });
    expect(before.every((p) => p.metadata?.ownerReferences?.[0]?.kind === 'DaemonSet')).toBe(true);
    const status = await apps.deleteNamespacedDaemonSet({
      name: 'kube-proxy',
      namespace: 'kube-system',
      propagationPolicy: 'Orphan',
    });
    // The answer is the DaemonSet itself, kept for the orphan finalizer (Store.Delete returns the
    // updated object when it is not deleted at once); client-node types it as a V1Status.
    expect(status).toMatchObject({ kind: 'DaemonSet', apiVersion: 'apps/v1' });
    await eventually('the DaemonSet gone', () =>
      gone(() => apps.readNamespacedDaemonSet({ name: 'kube-proxy', namespace: 'kube-system' })),
    );
    const after = await proxyPods(core);
    expect(after.map((p) => p.metadata?.uid).sort()).toEqual(
      before.map((p) => p.metadata?.uid).sort(),
    );
    for (const pod of after) {
      expect(pod.metadata?.ownerReferences).toBeUndefined();
      expect(pod.metadata?.deletionTimestamp).toBeUndefined();
    }
  });

  it('Foreground (client-node): the DaemonSet keeps foregroundDeletion until its pods are gone', async () => {
    live = await startLiveTwin(50, {
      runtime: {
        start: () => ({ ok: true }),
        stop: (pod) => (pod.metadata.labels?.['app'] === 'agent' ? 100_000 : undefined),
      },
    });
    const kc = clientFor(live.twin.kubeconfigYaml());
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    await apps.createNamespacedDaemonSet({
      namespace: 'default',
      body: {
        metadata: { name: 'agent' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: {
            metadata: { labels: { app: 'agent' } },
            spec: {
              terminationGracePeriodSeconds: 120,
              tolerations: [{ operator: 'Exists' }],
              containers: [{ name: 'agent', image: 'registry.example/agent:1.0' }],
            },
          },
        },
      },
    });
    const agents = async () =>
      (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=agent' })).items;
    // Running, so their kubelets stop them gracefully (a pod no kubelet runs goes at once).
    await eventually('six running agent pods', async () => {
      const pods = await agents();
      return pods.length === 6 && pods.every((p) => p.status?.phase === 'Running')
        ? true
        : undefined;
    });
    await apps.deleteNamespacedDaemonSet({
      name: 'agent',
      namespace: 'default',
      propagationPolicy: 'Foreground',
    });
    const deleting = await apps.readNamespacedDaemonSet({ name: 'agent', namespace: 'default' });
    expect(deleting.metadata?.finalizers).toEqual(['foregroundDeletion']);
    expect(deleting.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    await eventually('agent pods terminating', async () => {
      const pods = await agents();
      return pods.length === 6 && pods.every((p) => p.metadata?.deletionTimestamp)
        ? true
        : undefined;
    });
    // Still there while its pods stop.
    expect(
      (await apps.readNamespacedDaemonSet({ name: 'agent', namespace: 'default' })).metadata
        ?.finalizers,
    ).toEqual(['foregroundDeletion']);
    await eventually(
      'the DaemonSet gone after its pods',
      () => gone(() => apps.readNamespacedDaemonSet({ name: 'agent', namespace: 'default' })),
      30_000,
    );
    expect(await agents()).toEqual([]);
  });

  it('evicts through pods/eviction: 201 while the budget allows, then 429 naming the budget', async () => {
    live = await startLiveTwin();
    const kc = clientFor(live.twin.kubeconfigYaml());
    const core = kc.makeApiClient(CoreV1Api);
    const policy = kc.makeApiClient(PolicyV1Api);
    await policy.createNamespacedPodDisruptionBudget({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      },
    });
    const budget = await eventually('the budget counted', async () => {
      const pdb = await policy.readNamespacedPodDisruptionBudget({
        name: 'web',
        namespace: 'default',
      });
      return pdb.status?.disruptionsAllowed === 1 ? pdb : undefined;
    });
    expect(budget.status).toMatchObject({ currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    const web = (
      await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })
    ).items
      .map((p) => p.metadata?.name ?? '')
      .sort();
    expect(web).toHaveLength(2);
    const evict = (name: string) =>
      core.createNamespacedPodEviction({
        name,
        namespace: 'default',
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name, namespace: 'default' },
        },
      });
    // The answer is a Status (201 Success); client-node types it as a V1Eviction, so only the
    // kind survives its deserializer. The pod is gone from the list afterwards.
    const ok = await evict(web[0]!);
    expect(ok.kind).toBe('Status');
    await eventually('the evicted pod terminating or gone', async () => {
      const pods = (
        await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })
      ).items;
      const evicted = pods.find((p) => p.metadata?.name === web[0]);
      return evicted === undefined || evicted.metadata?.deletionTimestamp ? true : undefined;
    });
    const refused = await apiError(evict(web[1]!));
    expect(refused.code).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: 'DisruptionBudget' }] },
    });
    const after = await policy.readNamespacedPodDisruptionBudget({
      name: 'web',
      namespace: 'default',
    });
    expect(after.status?.disruptionsAllowed).toBe(0);
  });
});
