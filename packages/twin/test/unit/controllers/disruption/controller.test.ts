// The disruption controller on the manual clock: status from matching pods, the failSafe for
// owners without a scale, recent evictions that stop counting after DeletionTimeout.
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { asRecord, asString, cloneJson } from '../../../../src/apimachinery/types.js';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { Harness } from '../harness.js';
import { harness, pods } from '../harness.js';

const pdbs = resourceFor('poddisruptionbudgets');
const events = resourceFor('events');

let h: Harness;
afterEach(() => h.controllers.stop());

function pdb(name: string, namespace: string, spec: JsonObject): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace },
    spec,
  };
}

const status = (namespace: string, name: string): JsonObject =>
  asRecord(h.store.get(pdbs, namespace, name)?.['status']);

function setReady(namespace: string, name: string, ready: boolean): void {
  const pod = cloneJson(h.store.get(pods, namespace, name)!);
  const st = asRecord(pod['status']);
  st['conditions'] = (st['conditions'] as JsonObject[]).map((c) =>
    c['type'] === 'Ready' ? { ...c, status: ready ? 'True' : 'False' } : c,
  );
  h.registry.update(pods, pod, undefined, { subresource: 'status' });
}

describe('disruption controller', () => {
  it('counts healthy pods against minAvailable and keeps the condition', async () => {
    h = await harness();
    await h.controllers.settle();
    h.registry.create(
      pdbs,
      pdb('web', 'default', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } }),
    );
    h.clock.advance(0);
    expect(status('default', 'web')).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'True',
          observedGeneration: 1,
          lastTransitionTime: h.clock.timestamp(),
          reason: 'SufficientPods',
          message: '',
        },
      ],
    });
    h.clock.advance(7000);
    setReady('default', 'web-5d8f9c7b6d-h2x8r', false);
    h.clock.advance(0);
    expect(status('default', 'web')).toMatchObject({
      disruptionsAllowed: 0,
      currentHealthy: 1,
      conditions: [
        expect.objectContaining({
          status: 'False',
          reason: 'InsufficientPods',
          lastTransitionTime: h.clock.timestamp(),
        }),
      ],
    });
  });

  it('follows a spec change to a new generation', async () => {
    h = await harness();
    await h.controllers.settle();
    h.registry.create(
      pdbs,
      pdb('web', 'default', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } }),
    );
    h.clock.advance(0);
    const live = cloneJson(h.store.get(pdbs, 'default', 'web')!);
    live['spec'] = { minAvailable: 2, selector: { matchLabels: { app: 'web' } } };
    h.registry.update(pdbs, live, live.metadata.resourceVersion);
    expect(h.store.get(pdbs, 'default', 'web')?.metadata.generation).toBe(2);
    h.clock.advance(0);
    expect(status('default', 'web')).toMatchObject({
      observedGeneration: 2,
      desiredHealthy: 2,
      disruptionsAllowed: 0,
    });
  });

  it('fails safe when the owners have no scale the twin can read', async () => {
    h = await harness({ events: true });
    await h.controllers.settle();
    h.registry.create(
      pdbs,
      pdb('proxy', 'kube-system', {
        maxUnavailable: 1,
        selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
      }),
    );
    h.registry.create(
      pdbs,
      pdb('web', 'default', { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } }),
    );
    h.clock.advance(0);
    const proxy = status('kube-system', 'proxy');
    expect(proxy).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 0, expectedPods: 0 });
    expect(proxy['observedGeneration']).toBeUndefined();
    expect(proxy['conditions']).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'False',
        lastTransitionTime: h.clock.timestamp(),
        reason: 'SyncFailed',
        message: 'daemonsets.apps does not implement the scale subresource',
      },
    ]);
    expect(asRecord((status('default', 'web')['conditions'] as JsonObject[])[0])['message']).toBe(
      'no matches for kind "ReplicaSet" in version "apps/v1"',
    );
    const reasons = h.store
      .list(events, { namespace: 'kube-system' })
      .items.filter((e) => asRecord(e['involvedObject'])['kind'] === 'PodDisruptionBudget')
      .map((e) => `${asString(e['reason'])}: ${asString(e['message'])}`);
    expect(reasons).toContain(
      'CalculateExpectedPodCountFailed: Failed to calculate the number of expected pods: daemonsets.apps does not implement the scale subresource',
    );
  });

  it('selects nothing with a nil selector, everything in the namespace with an empty one', async () => {
    h = await harness({ events: true });
    await h.controllers.settle();
    h.registry.create(pdbs, pdb('none', 'default', { minAvailable: 1 }));
    h.registry.create(pdbs, pdb('all', 'default', { minAvailable: 1, selector: {} }));
    h.clock.advance(0);
    expect(status('default', 'none')).toMatchObject({ expectedPods: 0, disruptionsAllowed: 0 });
    expect(status('default', 'all')).toMatchObject({ expectedPods: 2, disruptionsAllowed: 1 });
    const noPods = h.store
      .list(events, { namespace: 'default' })
      .items.filter((e) => e['reason'] === 'NoPods');
    expect(noPods[0]?.['message']).toBe('No matching pods found');
  });

  it('keeps an evicted pod out of currentHealthy for DeletionTimeout, then takes it back', async () => {
    h = await harness({ events: true });
    await h.controllers.settle();
    h.registry.create(
      pdbs,
      pdb('web', 'default', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } }),
    );
    h.clock.advance(0);
    const live = cloneJson(h.store.get(pdbs, 'default', 'web')!);
    live['status'] = {
      ...asRecord(live['status']),
      disruptionsAllowed: 0,
      disruptedPods: { 'web-5d8f9c7b6d-h2x8r': h.clock.timestamp() },
    };
    h.registry.update(pdbs, live, live.metadata.resourceVersion, { subresource: 'status' });
    h.clock.advance(0);
    expect(status('default', 'web')).toMatchObject({ currentHealthy: 1, disruptionsAllowed: 0 });
    h.clock.advance(119_000);
    expect(status('default', 'web')['disruptedPods']).toBeDefined();
    h.clock.advance(2000);
    expect(status('default', 'web')).toMatchObject({ currentHealthy: 2, disruptionsAllowed: 1 });
    expect(status('default', 'web')['disruptedPods']).toBeUndefined();
    const notDeleted = h.store
      .list(events, { namespace: 'default' })
      .items.filter((e) => e['reason'] === 'NotDeleted');
    expect(notDeleted.map((e) => e['message'])).toEqual([
      "Pod was expected by PDB default/web to be deleted but it wasn't",
    ]);
  });
});
