// Node health as the kubelet and the node lifecycle controller show it: the `not-ready` host fault
// (or setNodeReady) turns the Ready condition False, and node conditions and cordons become the
// node.kubernetes.io/* taints that the scheduler and the DaemonSet controller read.

import type { Clock, Scheduler } from '../../clock.js';
import type { Registry } from '../../registry/registry.js';
import { hostMatches } from '../../node/host/host.js';
import type { HostSpec } from '../../scenario/schema.js';
import type { ChangeEvent } from '../../store/store.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asRecord, asString } from '../../apimachinery/types.js';
import { condition, conditions, nodesDef, withCondition } from '../kube.js';
import type { TaintEffect } from '../scheduler/taints.js';
import { nodeTaints, taintKeys } from '../scheduler/taints.js';
import type { ErrorSink } from '../work-queue.js';
import type { RecordEvent } from '../events.js';
import { createWorkQueue } from '../work-queue.js';
import { controllerManager, kubeletManager } from '../managers.js';

export interface NodeControllerOptions {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  hosts: readonly HostSpec[];
  onError: ErrorSink;
  recordEvent?: RecordEvent;
}

export interface NodeController {
  /** Sets the node's Ready condition as its kubelet would report it. */
  setNodeReady(node: string, ready: boolean): void;
  /** A restarted kubelet posts its status: the conditions the controller made Unknown, Ready. */
  kubeletStarted(node: string, ready: boolean): void;
  stop(): void;
}

export function hostFaultsFor(hosts: readonly HostSpec[], node: KubeObject): Set<string> {
  const faults = new Set<string>();
  for (const host of hosts)
    if (hostMatches(host.match, node)) for (const f of host.faults ?? []) faults.add(f);
  return faults;
}

const managedKeys = new Set<string>(Object.values(taintKeys));

/** The healthy pressure conditions a kubelet posts (pkg/kubelet/nodestatus/setters.go). */
const kubeletPressure: [string, string, string][] = [
  ['MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
  ['DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
];

/** The taints TaintNodesByCondition (and taint-based eviction) derive from a node's state. */
export function conditionTaints(node: KubeObject): [string, TaintEffect][] {
  const out: [string, TaintEffect][] = [];
  const ready = condition(node, 'Ready')?.['status'];
  if (ready === 'False')
    out.push([taintKeys.notReady, 'NoSchedule'], [taintKeys.notReady, 'NoExecute']);
  if (ready === 'Unknown')
    out.push([taintKeys.unreachable, 'NoSchedule'], [taintKeys.unreachable, 'NoExecute']);
  const pressure: [string, string][] = [
    ['MemoryPressure', taintKeys.memoryPressure],
    ['DiskPressure', taintKeys.diskPressure],
    ['PIDPressure', taintKeys.pidPressure],
    ['NetworkUnavailable', taintKeys.networkUnavailable],
  ];
  for (const [type, key] of pressure)
    if (condition(node, type)?.['status'] === 'True') out.push([key, 'NoSchedule']);
  if (asRecord(node['spec'])['unschedulable'] === true)
    out.push([taintKeys.unschedulable, 'NoSchedule']);
  return out;
}

export function startNodeController(opts: NodeControllerOptions): NodeController {
  const { registry, clock } = opts;
  const store = registry.store;
  const queue = createWorkQueue(
    opts.scheduler,
    () => clock.now(),
    reconcileTaints,
    opts.onError,
    'node',
  );

  function reconcileTaints(name: string): void {
    const node = store.get(nodesDef, undefined, name);
    if (!node) return;
    const existing = nodeTaints(node);
    const kept = existing.filter((t) => !managedKeys.has(asString(t['key'])));
    const derived = conditionTaints(node).map(([key, effect]): JsonObject => {
      const old = existing.find((t) => t['key'] === key && t['effect'] === effect);
      if (old) return old;
      return effect === 'NoExecute'
        ? { key, effect, timeAdded: clock.timestamp() }
        : { key, effect };
    });
    const next = [...kept, ...derived];
    const same = next.length === existing.length && next.every((t) => existing.includes(t));
    if (same) return;
    const spec = { ...asRecord(node['spec']) };
    if (next.length === 0) delete spec['taints'];
    else spec['taints'] = next;
    registry.update(nodesDef, { ...node, spec }, undefined, { manager: controllerManager });
  }

  function setNodeReady(name: string, ready: boolean): void {
    const node = store.get(nodesDef, undefined, name);
    if (!node) throw new Error(`twin: no node ${name}`);
    const now = clock.timestamp();
    const next = ready
      ? {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
        }
      : {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message:
            'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
        };
    const old = condition(node, 'Ready');
    if (old?.['status'] === next.status && old['reason'] === next.reason) return;
    const list = withCondition(conditions(node), { ...next, lastHeartbeatTime: now }, now);
    const status = { ...asRecord(node['status']), conditions: list };
    registry.update(nodesDef, { ...node, status }, undefined, {
      subresource: 'status',
      manager: kubeletManager,
    });
    // nodestatus.ReadyCondition records the transition against the kubelet's nodeRef (UID = name).
    if (old?.['status'] !== next.status) {
      const event = ready ? 'NodeReady' : 'NodeNotReady';
      opts.recordEvent?.(
        { apiVersion: '', kind: 'Node', metadata: { name, uid: name } },
        'Normal',
        event,
        `Node ${name} status is now: ${event}`,
        { component: 'kubelet', host: name },
      );
    }
  }

  function kubeletStarted(name: string, ready: boolean): void {
    const node = store.get(nodesDef, undefined, name);
    if (!node) return;
    const now = clock.timestamp();
    let list = conditions(node);
    let changed = false;
    for (const [type, reason, message] of kubeletPressure) {
      if (condition(node, type)?.['status'] !== 'Unknown') continue;
      const next = { type, status: 'False', reason, message, lastHeartbeatTime: now };
      list = withCondition(list, next, now);
      changed = true;
    }
    if (changed) {
      const status = { ...asRecord(node['status']), conditions: list };
      registry.update(nodesDef, { ...node, status }, undefined, {
        subresource: 'status',
        manager: kubeletManager,
      });
    }
    setNodeReady(name, ready);
  }

  function onChange(event: ChangeEvent): void {
    if (event.resource.plural !== 'nodes' || event.type === 'DELETED') return;
    queue.add(event.object.metadata.name ?? '');
    if (event.type === 'ADDED' && hostFaultsFor(opts.hosts, event.object).has('not-ready')) {
      const name = event.object.metadata.name ?? '';
      opts.scheduler.after(0, () => {
        try {
          setNodeReady(name, false);
        } catch (error) {
          opts.onError(error, `node ${name}`);
        }
      });
    }
  }

  const unsubscribe = store.subscribe(onChange);
  for (const node of store.list(nodesDef).items) {
    const name = node.metadata.name ?? '';
    if (hostFaultsFor(opts.hosts, node).has('not-ready')) setNodeReady(name, false);
    queue.add(name);
  }
  return {
    setNodeReady,
    kubeletStarted,
    stop() {
      unsubscribe();
      queue.stop();
    },
  };
}
