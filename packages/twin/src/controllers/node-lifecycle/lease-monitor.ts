// monitorNodeHealth of the node lifecycle controller (pkg/controller/nodelifecycle/
// node_lifecycle_controller.go): every nodeMonitorPeriod (5 s) each Node's health signal is
// checked (its Ready heartbeat, or its kube-node-lease Lease being renewed); silent for longer
// than node-monitor-grace-period (50 s since 1.32, kubernetes#126287; 40 s before; 60 s for a
// Node that never posted Ready), its conditions turn Unknown ("Kubelet stopped posting node
// status."), a NodeNotReady event is recorded, and its pods get "Node is not ready" events
// (MarkPodsNotReady). The taints follow from the Unknown condition (nodes.ts).

import type { Clock } from '../../clock.js';
import { createScheduler } from '../../clock.js';
import { microTimeMs } from '../../apimachinery/micro-time.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asRecord, asString } from '../../apimachinery/types.js';
import type { Registry } from '../../registry/registry.js';
import type { RecordEvent } from '../events.js';
import { condition, conditions, isPodReady, nodeName, nodesDef, podsDef } from '../kube.js';
import { leasesDef, nodeLeaseNamespace } from '../kubelet/node-lease.js';
import type { ErrorSink } from '../work-queue.js';
import { controllerManager } from '../managers.js';

export interface NodeMonitorTimings {
  nodeMonitorPeriodMs: number;
  nodeMonitorGracePeriodMs: number;
  nodeStartupGracePeriodMs: number;
}

/** kube-controller-manager's defaults; `minor` is the served release (1.minor). */
export function nodeMonitorDefaults(minor: number | undefined): NodeMonitorTimings {
  return {
    nodeMonitorPeriodMs: 5_000,
    nodeMonitorGracePeriodMs: minor !== undefined && minor < 32 ? 40_000 : 50_000,
    nodeStartupGracePeriodMs: 60_000,
  };
}

export interface LeaseMonitorOptions {
  registry: Registry;
  clock: Clock;
  recordEvent: RecordEvent;
  onError: ErrorSink;
  timings: NodeMonitorTimings;
}

interface Health {
  probeMs: number;
  heartbeat: string | undefined;
  renewMs: number | undefined;
}

/** The conditions the controller marks Unknown; NetworkUnavailable is the control plane's. */
const monitoredConditions = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

const source = { component: 'node-controller' };

function renewMs(lease: KubeObject | undefined): number | undefined {
  const renew = asString(asRecord(lease?.['spec'])['renewTime']);
  if (renew === '') return undefined;
  try {
    return microTimeMs(renew);
  } catch {
    return undefined;
  }
}

export function startLeaseMonitor(opts: LeaseMonitorOptions): { stop(): void } {
  const { registry, clock, timings } = opts;
  const store = registry.store;
  const health = new Map<string, Health>();
  const scheduler = createScheduler(clock);

  /** tryUpdateNodeHealth, without the zone-disruption and eviction parts. */
  function check(node: KubeObject): void {
    const name = node.metadata.name ?? '';
    const now = clock.now();
    const ready = condition(node, 'Ready');
    const heartbeat = ready === undefined ? undefined : asString(ready['lastHeartbeatTime']);
    let h = health.get(name);
    if (!h) h = { probeMs: now, heartbeat, renewMs: undefined };
    else if (heartbeat !== h.heartbeat) h = { ...h, probeMs: now, heartbeat };
    const observed = renewMs(store.get(leasesDef, nodeLeaseNamespace, name));
    if (observed !== undefined && (h.renewMs === undefined || h.renewMs < observed))
      h = { ...h, probeMs: now, renewMs: observed };
    health.set(name, h);
    const grace = ready ? timings.nodeMonitorGracePeriodMs : timings.nodeStartupGracePeriodMs;
    if (!(now > h.probeMs + grace)) return;
    const stamp = clock.timestamp();
    const list = conditions(node).map((c) => ({ ...c }));
    for (const type of monitoredConditions) {
      const current = list.find((c) => c['type'] === type);
      if (!current) {
        list.push({
          type,
          status: 'Unknown',
          lastHeartbeatTime: node.metadata.creationTimestamp ?? stamp,
          lastTransitionTime: stamp,
          reason: 'NodeStatusNeverUpdated',
          message: 'Kubelet never posted node status.',
        });
      } else if (current['status'] !== 'Unknown') {
        Object.assign(current, {
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastTransitionTime: stamp,
        } satisfies JsonObject);
      }
    }
    if (ready?.['status'] === 'Unknown') return;
    // Pods Ready until now get the controller's event; the kubelet model turns them not Ready.
    const readyPods = store
      .list(podsDef, { match: (p) => nodeName(p) === name && isPodReady(p) })
      .items.map((p) => ({ ...p }));
    const status = { ...asRecord(node['status']), conditions: list };
    const updated = registry.update(nodesDef, { ...node, status }, undefined, {
      subresource: 'status',
      manager: controllerManager,
    });
    if (ready?.['status'] !== 'True') return;
    opts.recordEvent(
      { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: updated.metadata.uid ?? '' } },
      'Normal',
      'NodeNotReady',
      `Node ${name} status is now: NodeNotReady`,
      source,
    );
    for (const pod of readyPods)
      opts.recordEvent(pod, 'Warning', 'NodeNotReady', 'Node is not ready', source);
  }

  function pass(): void {
    const names = new Set<string>();
    for (const node of store.list(nodesDef).items) {
      names.add(node.metadata.name ?? '');
      try {
        check(node);
      } catch (error) {
        opts.onError(error, `node health ${node.metadata.name ?? ''}`);
      }
    }
    for (const name of health.keys()) if (!names.has(name)) health.delete(name);
    scheduler.after(timings.nodeMonitorPeriodMs, pass);
  }

  pass();
  return { stop: () => scheduler.stop() };
}
