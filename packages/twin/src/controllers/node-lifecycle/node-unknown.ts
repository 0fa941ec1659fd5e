// A node whose kubelet stopped posting: the node lifecycle controller's tryUpdateNodeHealth
// (pkg/controller/nodelifecycle/node_lifecycle_controller.go) sets Ready, MemoryPressure,
// DiskPressure and PIDPressure to Unknown ("Kubelet stopped posting node status.") once
// --node-monitor-grace-period has passed without a heartbeat, and the taints follow (nodes.ts).
// When the kubelet is back it posts its conditions again. The twin counts the grace period from the
// moment the kubelet stopped; the real controller notices on its next 5 s monitor pass after the
// last lease renewal (every 10 s) plus the grace period.

import type { Cancel, Clock, Scheduler } from '../../clock.js';
import type { JsonObject } from '../../apimachinery/types.js';
import { asRecord } from '../../apimachinery/types.js';
import type { Registry } from '../../registry/registry.js';
import { conditions, nodesDef } from '../kube.js';
import type { ErrorSink } from '../work-queue.js';

export interface NodeUnknownOptions {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  onError: ErrorSink;
  gracePeriodMs: () => number;
}

export interface NodeUnknownMonitor {
  kubeletChanged(node: string, up: boolean): void;
  stop(): void;
}

const monitored = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

/** What a healthy kubelet posts for each condition (pkg/kubelet/nodestatus/setters.go). */
const posted: Record<(typeof monitored)[number], JsonObject> = {
  Ready: { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
  MemoryPressure: {
    status: 'False',
    reason: 'KubeletHasSufficientMemory',
    message: 'kubelet has sufficient memory available',
  },
  DiskPressure: {
    status: 'False',
    reason: 'KubeletHasNoDiskPressure',
    message: 'kubelet has no disk pressure',
  },
  PIDPressure: {
    status: 'False',
    reason: 'KubeletHasSufficientPID',
    message: 'kubelet has sufficient PID available',
  },
};

export function startNodeUnknownMonitor(opts: NodeUnknownOptions): NodeUnknownMonitor {
  const { registry, clock } = opts;
  const timers = new Map<string, Cancel>();

  function writeConditions(
    name: string,
    next: (c: JsonObject[], now: string) => JsonObject[],
  ): void {
    const node = registry.store.get(nodesDef, undefined, name);
    if (!node) return;
    const status = {
      ...asRecord(node['status']),
      conditions: next(conditions(node), clock.timestamp()),
    };
    registry.update(nodesDef, { ...node, status }, undefined, { subresource: 'status' });
  }

  function markUnknown(list: JsonObject[], now: string): JsonObject[] {
    const out = list.map((c) =>
      monitored.includes(c['type'] as (typeof monitored)[number]) && c['status'] !== 'Unknown'
        ? {
            ...c,
            status: 'Unknown',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
            lastTransitionTime: now,
          }
        : c,
    );
    for (const type of monitored)
      if (!out.some((c) => c['type'] === type))
        out.push({
          type,
          status: 'Unknown',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
          reason: 'NodeStatusNeverUpdated',
          message: 'Kubelet never posted node status.',
        });
    return out;
  }

  function repost(list: JsonObject[], now: string): JsonObject[] {
    return list.map((c) => {
      const type = c['type'] as (typeof monitored)[number];
      if (!monitored.includes(type) || c['status'] !== 'Unknown') return c;
      return { ...c, ...posted[type], lastHeartbeatTime: now, lastTransitionTime: now };
    });
  }

  const guarded = (name: string, fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      opts.onError(error, `node ${name}`);
    }
  };

  return {
    kubeletChanged(name, up) {
      timers.get(name)?.();
      timers.delete(name);
      if (up) {
        guarded(name, () => writeConditions(name, repost));
        return;
      }
      const cancel = opts.scheduler.after(opts.gracePeriodMs(), () => {
        timers.delete(name);
        guarded(name, () => writeConditions(name, markUnknown));
      });
      timers.set(name, cancel);
    },
    stop() {
      for (const cancel of timers.values()) cancel();
      timers.clear();
    },
  };
}
