// The cluster twin's entry point: load a scenario, seed the store, serve the Kubernetes API.
// The product's CLI (`proxy-migrate twin`) and the tests start it through startTwin().

import type { AddressInfo } from 'node:net';
import { createApiServer, type ApiServer } from './server/api-server.js';
import type { FaultInjector } from './server/admin/faults.js';
import type { RequestStats } from './server/admin/stats.js';
import { createClock, type Clock } from './clock.js';
import { startControllers, type Controllers } from './controllers/index.js';
import { resolveTimings } from './scenario/timings.js';
import type { ScenarioTimings } from './scenario/schema.js';
import type { ClusterDataplane } from './node/index.js';
import { wireNodeModel, type NodeWiring } from './node-wiring.js';
import { renderKubeconfig, writeKubeconfig } from './kubeconfig.js';
import { Registry } from './registry/registry.js';
import type { Scenario } from './scenario/scenario.js';
import { loadScenario } from './scenario/scenario.js';
import { ObjectStore } from './store/store.js';

export type {
  ChangeEvent,
  ChangeListener,
  ChangeType,
  ListPage,
  ListQuery,
} from './store/store.js';
export type { DeleteContext, DeleteDecision, DeleteHook } from './registry/registry.js';
export type { Scenario } from './scenario/scenario.js';
export type {
  ScenarioHeader,
  HostSpec,
  ApiFault,
  ImageSpec,
  ScenarioTimings,
} from './scenario/schema.js';
export type { Timings } from './scenario/timings.js';
export type { KubeObject, ObjectMeta } from './apimachinery/types.js';
export type { ResourceDef } from './registry/resources.js';
export type { Clock, ManualClock, Scheduler } from './clock.js';
export { createManualClock } from './clock.js';
export type { Controllers, PodRuntime } from './controllers/index.js';
export type { ExecProvider, ExecRequest, ExecResult } from './server/streams/exec.js';
export type { WriteRecord } from './server/admin/stats.js';
export type { LogsProvider, LogSource, LogLine } from './server/streams/logs.js';
export type { ClusterDataplane } from './node/index.js';
export { ObjectStore } from './store/store.js';
export { Registry } from './registry/registry.js';
export {
  ScenarioError,
  loadScenario,
  parseScenario,
  shippedScenarioNames,
} from './scenario/scenario.js';
export { resources, resourceFor } from './registry/resources.js';
export { renderKubeconfig } from './kubeconfig.js';

export interface TwinOptions {
  /** A scenario file path, or the name of a shipped scenario (`scenarios/<name>.yaml`). */
  scenario: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Simulated clock speed: 2 makes simulated time pass twice as fast. */
  speed?: number;
  /** A clock of the caller's (e.g. a manual one to step time in tests); overrides `speed`. */
  clock?: Clock;
  /**
   * Run the DaemonSet and pod controllers and the node model (default true). Without them the
   * twin is a plain API server: objects stay as the scenario wrote them.
   */
  controllers?: boolean;
  /** Overrides the scenario's `spec.timings` (same fields, in seconds). */
  timings?: ScenarioTimings;
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
  /** The running controllers; undefined with `controllers: false`. */
  controllers: Controllers | undefined;
  /** Every node's host, kube-proxy and dataplane; undefined with `controllers: false`. */
  dataplane: ClusterDataplane | undefined;
  /** API faults in force (scenario spec.faults, changed at run time through /twin/faults). */
  faults: FaultInjector;
  /** API requests served, by verb and resource (also GET /twin/stats). */
  stats: RequestStats;
  kubeconfigYaml(): string;
  writeKubeconfig(path: string): Promise<void>;
  close(): Promise<void>;
}

function listen(api: ApiServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    api.server.once('error', reject);
    api.server.listen(port, host, () => {
      api.server.off('error', reject);
      resolve();
    });
  });
}

export async function startTwin(options: TwinOptions): Promise<Twin> {
  const scenario = await loadScenario(options.scenario);
  const store = new ObjectStore(options.clock ?? createClock(options.speed ?? 1));
  const registry = new Registry(store);
  registry.seed(scenario.objects);
  const kubernetesVersion = scenario.header.spec.kubernetesVersion;
  const hosts = scenario.header.spec.hosts ?? [];
  const host = options.host ?? '127.0.0.1';
  let wiring: NodeWiring | undefined;
  let controllers: Controllers | undefined;
  let api: ApiServer | undefined;
  try {
    if (options.controllers !== false) {
      const images = scenario.header.spec.images;
      wiring = wireNodeModel({ registry, clock: store.clock, kubernetesVersion, hosts, images });
      const timings = resolveTimings(kubernetesVersion, {
        ...scenario.header.spec.timings,
        ...options.timings,
      });
      // A scenario describes a cluster that is already up: its DaemonSet pods start (and
      // kube-proxy syncs) with no delay while the twin boots, and with the node's delays after.
      controllers = startControllers({
        registry,
        store,
        clock: store.clock,
        hosts,
        kubernetesVersion,
        runtime: wiring.runtime,
        timings: {
          startMs: 0,
          probeDelays: false,
          stopMs: timings.podStopMs,
          configMapSyncMs: timings.configMapSyncMs,
          nodeMonitorGracePeriodMs: timings.nodeMonitorGracePeriodMs,
        },
      });
      wiring.attach(controllers);
      await controllers.settle({ horizonMs: 0, timeoutMs: 60_000 });
      controllers.setTimings({ startMs: timings.podStartMs, probeDelays: true });
      wiring.setTimings({ kubeProxyFirstSyncMs: timings.kubeProxyFirstSyncMs });
    }
    api = createApiServer({
      registry,
      kubernetesVersion,
      scenarioHeader: scenario.headerJson,
      faults: scenario.header.spec.faults ?? [],
      faultSeed: scenario.header.metadata.name,
      ...(wiring === undefined
        ? {}
        : {
            exec: wiring.exec,
            logs: wiring.logs,
            setHostFaults: wiring.setHostFaults,
            getHostFaults: wiring.getHostFaults,
            kubelet: wiring.kubelet,
          }),
    });
    await listen(api, options.port ?? 0, host);
  } catch (error) {
    // Boot failed (settle timed out, the port was taken…): leave no timers or watches behind.
    controllers?.stop();
    wiring?.stop();
    api?.stopWatches();
    throw error;
  }
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
    controllers,
    dataplane: wiring?.dataplane,
    faults: api.faults,
    stats: api.stats,
    kubeconfigYaml: () => renderKubeconfig(kubeconfig),
    writeKubeconfig: (path) => writeKubeconfig(path, kubeconfig),
    close: () =>
      new Promise<void>((resolve, reject) => {
        controllers?.stop();
        wiring?.stop();
        api.stopWatches();
        api.server.close((error) => (error ? reject(error) : resolve()));
        api.server.closeAllConnections();
      }),
  };
}
