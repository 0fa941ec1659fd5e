// The eviction subresource on the manual clock, with the controllers running: every rule of
// eviction.go, from "already disrupted" pods to the budget's 429.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/apimachinery/errors.js';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord, cloneJson } from '../../../../src/apimachinery/types.js';
import { evictPod } from '../../../../src/registry/policy/eviction.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { Harness } from '../../controllers/harness.js';
import { harness, pods } from '../../controllers/harness.js';

const pdbs = resourceFor('poddisruptionbudgets');
const podA = 'web-5d8f9c7b6d-h2x8r';
const podB = 'web-5d8f9c7b6d-p7c4n';

let h: Harness;
afterEach(() => h.controllers.stop());

function budget(name: string, spec: JsonObject): void {
  h.registry.create(pdbs, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  });
  h.clock.advance(0);
}

function evict(name: string, namespace = 'default', extra: JsonObject = {}): JsonObject {
  return evictPod(h.registry, namespace, name, {
    eviction: {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name, namespace },
      ...extra,
    },
    dryRun: [],
  });
}

function failure(run: () => unknown): JsonObject {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.toStatus();
    throw error;
  }
  throw new Error('expected the eviction to fail');
}

const pod = (name: string, namespace = 'default'): KubeObject | undefined =>
  h.store.get(pods, namespace, name);

function setStatus(name: string, change: (status: JsonObject) => void): void {
  const live = cloneJson(pod(name)!);
  const status = asRecord(live['status']);
  change(status);
  live['status'] = status;
  h.registry.update(pods, live, undefined, { subresource: 'status' });
}

const success = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

describe('pods/eviction', () => {
  it('deletes a pod no budget covers, gracefully, with the DisruptionTarget condition', async () => {
    h = await harness();
    await h.controllers.settle();
    expect(evict(podA)).toEqual(success);
    const evicted = pod(podA)!;
    expect(evicted.metadata.deletionTimestamp).toBeDefined();
    expect(asRecord(evicted['status'])['conditions']).toContainEqual({
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: h.clock.timestamp(),
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
    });
    await h.controllers.settle();
    expect(pod(podA)).toBeUndefined();
  });

  it('answers 429 with the budget as the cause when no disruption is allowed', async () => {
    h = await harness();
    await h.controllers.settle();
    budget('web', { minAvailable: 2 });
    expect(failure(() => evict(podA))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget web needs 2 healthy pods and has 2 currently',
          },
        ],
      },
      code: 429,
    });
    expect(pod(podA)?.metadata.deletionTimestamp).toBeUndefined();
  });

  it('spends the budget: the first eviction passes and records the pod, the second waits', async () => {
    h = await harness();
    await h.controllers.settle();
    budget('web', { minAvailable: 1 });
    expect(evict(podA)).toEqual(success);
    const status = asRecord(h.store.get(pdbs, 'default', 'web')?.['status']);
    expect(status['disruptionsAllowed']).toBe(0);
    expect(status['disruptedPods']).toEqual({ [podA]: h.clock.timestamp() });
    // Before the controller's next sync the status still counts the evicted pod as healthy.
    const cause = (): unknown => asRecord(failure(() => evict(podB))['details'])['causes'];
    expect(cause()).toEqual([
      {
        reason: 'DisruptionBudget',
        message: 'The disruption budget web needs 1 healthy pods and has 2 currently',
      },
    ]);
    h.clock.advance(0);
    expect(cause()).toEqual([
      {
        reason: 'DisruptionBudget',
        message: 'The disruption budget web needs 1 healthy pods and has 1 currently',
      },
    ]);
  });

  it('always evicts terminal, Pending and terminating pods, budget or not', async () => {
    h = await harness();
    await h.controllers.settle();
    budget('web', { minAvailable: 2 });
    setStatus(podA, (s) => (s['phase'] = 'Succeeded'));
    expect(evict(podA)).toEqual(success);
    expect(pod(podA)).toBeUndefined();
    setStatus(podB, (s) => (s['phase'] = 'Pending'));
    expect(evict(podB)).toEqual(success);
  });

  it('lets an unready pod go when the others keep the budget, or with AlwaysAllow', async () => {
    h = await harness();
    await h.controllers.settle();
    budget('web', { minAvailable: 1 });
    const unready = (s: JsonObject): void => {
      s['conditions'] = (s['conditions'] as JsonObject[]).map((c) =>
        c['type'] === 'Ready' ? { ...c, status: 'False' } : c,
      );
    };
    setStatus(podA, unready);
    h.clock.advance(0);
    // currentHealthy 1 >= desiredHealthy 1: the unready pod goes without spending the budget.
    expect(evict(podA)).toEqual(success);
    expect(
      asRecord(h.store.get(pdbs, 'default', 'web')?.['status'])['disruptedPods'],
    ).toBeUndefined();
    h.controllers.stop();

    h = await harness();
    await h.controllers.settle();
    budget('web', { minAvailable: 2 });
    setStatus(podA, unready);
    h.clock.advance(0);
    expect(failure(() => evict(podA))['code']).toBe(429);
    const live = cloneJson(h.store.get(pdbs, 'default', 'web')!);
    live['spec'] = { ...asRecord(live['spec']), unhealthyPodEvictionPolicy: 'AlwaysAllow' };
    h.registry.update(pdbs, live, live.metadata.resourceVersion);
    h.clock.advance(0);
    expect(evict(podA)).toEqual(success);
  });

  it('evicts a DaemonSet pod like any other, and the DaemonSet replaces it', async () => {
    h = await harness();
    await h.controllers.settle();
    const victim = h.kubeProxyPods().find((p) => asRecord(p['spec'])['nodeName'] === 'blue-1')!;
    expect(evict(victim.metadata.name ?? '', 'kube-system')).toEqual(success);
    await h.controllers.settle();
    const now = h.kubeProxyPods().find((p) => asRecord(p['spec'])['nodeName'] === 'blue-1');
    expect(now?.metadata.uid).not.toBe(victim.metadata.uid);
  });

  it('answers 404, the several-budgets Failure, and the stale-budget 429 as eviction.go does', async () => {
    h = await harness();
    await h.controllers.settle();
    expect(failure(() => evict('nope'))).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'pods "nope" not found',
    });
    budget('a', { minAvailable: 1 });
    budget('b', { maxUnavailable: 1 });
    expect(evict(podA)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    });
    h.registry.delete(pdbs, 'default', 'b');
    // A spec change the controller has not seen yet: observedGeneration lags behind.
    const live = cloneJson(h.store.get(pdbs, 'default', 'a')!);
    live['spec'] = { ...asRecord(live['spec']), minAvailable: 0 };
    h.registry.update(pdbs, live, live.metadata.resourceVersion);
    expect(failure(() => evict(podA))).toMatchObject({
      code: 429,
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget a is still being processed by the server.',
          },
        ],
        retryAfterSeconds: 10,
      },
    });
  });

  it('changes nothing on a dry run', async () => {
    h = await harness();
    await h.controllers.settle();
    budget('web', { minAvailable: 1 });
    const rv = h.store.resourceVersion;
    expect(evict(podA, 'default', { deleteOptions: { dryRun: ['All'] } })).toEqual(success);
    expect(h.store.resourceVersion).toBe(rv);
  });

  it('answers a dry-run mismatch between query and body as a plain Go error: 500, no reason', async () => {
    h = await harness();
    await h.controllers.settle();
    const mismatch = (): unknown =>
      evictPod(h.registry, 'default', podA, {
        eviction: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name: podA, namespace: 'default' },
          deleteOptions: { dryRun: ['All', 'All'] },
        },
        dryRun: ['All'],
      });
    expect(failure(mismatch)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Non-matching dry-run options in request and content: [All] and [All All]',
      code: 500,
    });
  });
});
