// The cluster twin's entry point: load a scenario, seed the store, serve the Kubernetes API.
// The product's CLI (`proxy-migrate twin`) and the tests start it through startTwin().

import type { AddressInfo } from 'node:net';
import { createApiServer } from './api-server.js';
import { createClock } from './clock.js';
import { renderKubeconfig, writeKubeconfig } from './kubeconfig.js';
import { Registry } from './registry.js';
import type { Scenario } from './scenario.js';
import { loadScenario } from './scenario.js';
import { ObjectStore } from './store.js';

export type { ChangeEvent, ChangeListener, ChangeType, ListPage, ListQuery } from './store.js';
export type { DeleteContext, DeleteDecision, DeleteHook } from './registry.js';
export type { Scenario } from './scenario.js';
export type { ScenarioHeader, HostSpec, ApiFault } from './scenario-schema.js';
export type { KubeObject, ObjectMeta } from './types.js';
export type { ResourceDef } from './resources.js';
export type { Clock } from './clock.js';
export { ObjectStore } from './store.js';
export { Registry } from './registry.js';
export { ScenarioError, loadScenario, parseScenario, shippedScenarioNames } from './scenario.js';
export { resources, resourceFor } from './resources.js';
export { renderKubeconfig } from './kubeconfig.js';

export interface TwinOptions {
  /** A scenario file path, or the name of a shipped scenario (`scenarios/<name>.yaml`). */
  scenario: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Simulated clock speed: 2 makes simulated time pass twice as fast. */
  speed?: number;
}

export interface Twin {
  url: string;
  port: number;
  /** The scenario's metadata.name, also the kubeconfig context name. */
  name: string;
  scenario: Scenario;
  store: ObjectStore;
  /** The write path with defaulting, finalizers and delete hooks, for controllers. */
  registry: Registry;
  kubeconfigYaml(): string;
  writeKubeconfig(path: string): Promise<void>;
  close(): Promise<void>;
}

export async function startTwin(options: TwinOptions): Promise<Twin> {
  const scenario = await loadScenario(options.scenario);
  const store = new ObjectStore(createClock(options.speed ?? 1));
  const registry = new Registry(store);
  registry.seed(scenario.objects);
  const api = createApiServer({
    registry,
    kubernetesVersion: scenario.header.spec.kubernetesVersion,
    scenarioHeader: scenario.headerJson,
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    api.server.once('error', reject);
    api.server.listen(options.port ?? 0, host, () => {
      api.server.off('error', reject);
      resolve();
    });
  });
  const port = (api.server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  const name = scenario.header.metadata.name;
  const kubeconfig = { name, server: url };
  return {
    url,
    port,
    name,
    scenario,
    store,
    registry,
    kubeconfigYaml: () => renderKubeconfig(kubeconfig),
    writeKubeconfig: (path) => writeKubeconfig(path, kubeconfig),
    close: () =>
      new Promise<void>((resolve, reject) => {
        api.stopWatches();
        api.server.close((error) => (error ? reject(error) : resolve()));
        api.server.closeAllConnections();
      }),
  };
}
