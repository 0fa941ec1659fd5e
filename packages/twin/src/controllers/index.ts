// The controllers that make the twin behave like a cluster: DaemonSet controller, scheduler,
// kubelet-style pod lifecycle, node health with taint-based eviction, the garbage collector, the
// disruption controller and the service-account tokens controller, sharing one simulated-time
// scheduler.

import type { Clock } from '../clock.js';
import { createScheduler, isManualClock } from '../clock.js';
import type { Registry } from '../registry/registry.js';
import type { HostSpec } from '../scenario/schema.js';
import type { ObjectStore } from '../store/store.js';
import { startBinder } from './scheduler/binder.js';
import { startDaemonSetController } from './daemonset/controller.js';
import { startDisruptionController } from './disruption/controller.js';
import { startTokensController } from './serviceaccount/tokens.js';
import { startGarbageCollector } from './garbage-collector/collector.js';
import type { RecordEvent } from './events.js';
import { createEventRecorder } from './events.js';
import { startNodeController } from './node-lifecycle/nodes.js';
import { startNodeHealth } from './node-lifecycle/node-health.js';
import { startTaintEviction } from './node-lifecycle/taint-eviction.js';
import type { ContainerExit } from './kubelet/pods.js';
import { startPodLifecycle } from './kubelet/pods.js';
import type { PodRuntime, PodTimings } from './kubelet/runtime.js';
import { defaultRuntime, defaultTimings } from './kubelet/runtime.js';
import { hostFaultsFor } from './node-lifecycle/nodes.js';
import type { KubeObject } from '../apimachinery/types.js';
import { nodesDef } from './kube.js';
import type { ErrorSink } from './work-queue.js';

export type { PodRuntime, PodTimings } from './kubelet/runtime.js';

export interface ControllerTimings extends PodTimings {
  /** How long a node whose kubelet stopped stays Ready before it turns Unknown. */
  nodeMonitorGracePeriodMs: number;
}
export { crashBackoffMs, defaultTimings } from './kubelet/runtime.js';

export interface ControllerOptions {
  registry: Registry;
  /** Must be the registry's store; accepted so callers can pass the twin's pieces as they are. */
  store?: ObjectStore;
  /** Defaults to the store's clock; pass a manual clock (the store's own) to step time in tests. */
  clock?: Clock;
  runtime?: PodRuntime;
  /** The scenario's spec.hosts: host faults such as `not-ready` apply to matching nodes. */
  hosts?: readonly HostSpec[];
  timings?: Partial<ControllerTimings>;
  /** Record core/v1 Events (SuccessfulCreate, Killing, BackOff…); on by default. */
  events?: boolean;
  /** Where reconcile errors go; they never crash the twin. Defaults to stderr. */
  onError?: ErrorSink;
  /** The served release (e.g. v1.33.4): node-monitor-grace-period is 50 s from 1.32, else 40 s. */
  kubernetesVersion?: string;
  /** Node Lease heartbeats and the node health monitor that reads them; on by default. */
  nodeLeases?: boolean;
}

export interface SettleOptions {
  /** Timers further away than this (simulated ms) do not count; default 60 s. */
  horizonMs?: number;
  /** Real-time limit for a real clock; default 30 s. */
  timeoutMs?: number;
}

export interface Controllers {
  /** Cancels every timer and unsubscribes; the store keeps its objects. */
  stop(): void;
  /** Resolves once no timer is due within the horizon (a manual clock is advanced to get there). */
  settle(options?: SettleOptions): Promise<void>;
  /** Changes the kubelet's delays from now on (the twin boots with zero delays). */
  setTimings(timings: Partial<ControllerTimings>): void;
  /** Sets a node's Ready condition, as a runtime `not-ready` fault would. */
  setNodeReady(node: string, ready: boolean): void;
  /** A running container exited on its own: the pod goes through CrashLoopBackOff restarts. */
  containerExited(namespace: string, name: string, exit: ContainerExit): boolean;
  /**
   * The node's kubelet stops (the kubelet-down host fault: no pod work, no Lease renewals) or
   * starts again; on start it posts its status, Ready as `readyWhenUp` says.
   */
  setKubeletDown(node: string, down: boolean, readyWhenUp: boolean): void;
  kubeletUp(node: string): boolean;
  /** Whether the kubelet runs the pod's containers (undefined: a pod it does not track). */
  containerRunning(pod: KubeObject): boolean | undefined;
}

const defaultOnError: ErrorSink = (error, context) => {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`twin controllers: ${context}: ${text}\n`);
};

export function startControllers(options: ControllerOptions): Controllers {
  const { registry } = options;
  if (options.store && options.store !== registry.store)
    throw new Error('twin: startControllers needs the registry and its own store');
  const clock = options.clock ?? registry.store.clock;
  const scheduler = createScheduler(clock);
  const onError = options.onError ?? defaultOnError;
  const record = createEventRecorder(registry, clock);
  const recordEvent: RecordEvent =
    options.events === false
      ? () => undefined
      : (...args) => {
          try {
            record(...args);
          } catch (error) {
            onError(error, 'event');
          }
        };
  const runtime = options.runtime ?? defaultRuntime;
  const timings: ControllerTimings = {
    ...defaultTimings,
    nodeMonitorGracePeriodMs: 50_000,
    ...options.timings,
  };
  const shared = { registry, clock, scheduler, onError, recordEvent };
  // Pods first: they must see the node readiness changes the node controller makes at start.
  const pods = startPodLifecycle({ ...shared, runtime, timings });
  const binder = startBinder(shared);
  const nodes = startNodeController({ ...shared, hosts: options.hosts ?? [] });
  const taintEviction = startTaintEviction(shared);
  const daemonSets = startDaemonSetController(shared);
  const garbage = startGarbageCollector(shared);
  const disruption = startDisruptionController(shared);
  const tokens = startTokensController(shared);
  // Lease heartbeats and the lease monitor: a kubelet that stops renewing goes Unknown.
  const heartbeats = startNodeHealth(
    { ...options, nodeMonitorGracePeriodMs: options.timings?.nodeMonitorGracePeriodMs },
    shared,
  );
  function setKubeletDown(node: string, down: boolean, readyWhenUp: boolean): void {
    if (pods.kubeletUp(node) === !down) return;
    pods.setKubeletUp(node, !down);
    heartbeats.setKubeletDown(node, down);
    if (!down) nodes.kubeletStarted(node, readyWhenUp);
  }
  // A scenario host with kubelet-down has no kubelet from the start (its Lease stays unrenewed:
  // node-lease.ts reads the same host facts).
  for (const node of registry.store.list(nodesDef).items)
    if (hostFaultsFor(options.hosts ?? [], node).has('kubelet-down'))
      pods.setKubeletUp(node.metadata.name ?? '', false);
  let stopped = false;

  async function settle(settleOptions: SettleOptions = {}): Promise<void> {
    const horizon = settleOptions.horizonMs ?? 60_000;
    const deadline = Date.now() + (settleOptions.timeoutMs ?? 30_000);
    for (let steps = 0; !stopped; steps += 1) {
      const due = scheduler.nextDue();
      if (due === undefined || due - clock.now() > horizon) return;
      if (isManualClock(clock)) {
        if (steps > 1_000_000) throw new Error('twin: controllers did not settle (timer storm)');
        clock.advance(Math.max(0, due - clock.now()));
        continue;
      }
      if (Date.now() > deadline) throw new Error('twin: controllers did not settle in time');
      const wait = Math.max(1, (due - clock.now()) / clock.speed);
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 50)));
    }
  }

  return {
    stop() {
      stopped = true;
      tokens.stop();
      disruption.stop();
      garbage.stop();
      daemonSets.stop();
      heartbeats.stop();
      taintEviction.stop();
      nodes.stop();
      binder.stop();
      pods.stop();
      scheduler.stop();
    },
    settle,
    // Kubelets read the shared timings object whenever they schedule, so this applies at once.
    setTimings: (next) => Object.assign(timings, next),
    setNodeReady: (node, ready) => nodes.setNodeReady(node, ready),
    containerExited: (namespace, name, exit) => pods.containerExited(namespace, name, exit),
    setKubeletDown,
    kubeletUp: (node) => pods.kubeletUp(node),
    containerRunning: (pod) => pods.containerRunning(pod),
  };
}
