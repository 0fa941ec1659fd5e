// A twin without HTTP on a manual clock: the scenario's objects in a store, the controllers on
// top, and helpers to read what a test asserts on.
import { createManualClock } from '../../../src/clock.js';
import type { ManualClock } from '../../../src/clock.js';
import type { ControllerOptions, Controllers } from '../../../src/controllers/index.js';
import { startControllers } from '../../../src/controllers/index.js';
import { Registry } from '../../../src/registry/registry.js';
import { resourceFor } from '../../../src/registry/resources.js';
import { loadScenario } from '../../../src/scenario/scenario.js';
import { ObjectStore } from '../../../src/store/store.js';
import type { KubeObject } from '../../../src/apimachinery/types.js';

export const pods = resourceFor('pods');
export const nodes = resourceFor('nodes');
export const daemonsets = resourceFor('daemonsets');
export const revisions = resourceFor('controllerrevisions');

export interface Harness {
  clock: ManualClock;
  registry: Registry;
  store: ObjectStore;
  controllers: Controllers;
  kubeProxyPods(): KubeObject[];
  ds(name?: string): KubeObject;
  node(name: string): KubeObject;
}

export async function harness(
  options: Partial<ControllerOptions> = {},
  mutate?: (objects: KubeObject[]) => void,
): Promise<Harness> {
  const scenario = await loadScenario('kubeadm-ipvs');
  const clock = createManualClock();
  const store = new ObjectStore(clock);
  const registry = new Registry(store);
  mutate?.(scenario.objects);
  registry.seed(scenario.objects);
  const controllers = startControllers({ registry, store, clock, events: false, ...options });
  return {
    clock,
    registry,
    store,
    controllers,
    kubeProxyPods: () =>
      store
        .list(pods, { namespace: 'kube-system' })
        .items.filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy'),
    ds: (name = 'kube-proxy') => store.get(daemonsets, 'kube-system', name)!,
    node: (name) => store.get(nodes, undefined, name)!,
  };
}
