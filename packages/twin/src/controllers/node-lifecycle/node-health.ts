// Node health over time: the kubelets' Lease heartbeats (kubelet/node-lease.ts) and the node
// lifecycle controller's monitor that reads them (lease-monitor.ts), started together.

import type { Clock } from '../../clock.js';
import type { Registry } from '../../registry/registry.js';
import type { HostSpec } from '../../scenario/schema.js';
import { parseKubeVersion } from '../../node/versions.js';
import type { RecordEvent } from '../events.js';
import { startNodeLeases } from '../kubelet/node-lease.js';
import type { ErrorSink } from '../work-queue.js';
import { nodeMonitorDefaults, startLeaseMonitor } from './lease-monitor.js';

export interface NodeHealthOptions {
  hosts?: readonly HostSpec[] | undefined;
  kubernetesVersion?: string | undefined;
  nodeLeases?: boolean | undefined;
  /** --node-monitor-grace-period (scenario spec.timings); default the release's. */
  nodeMonitorGracePeriodMs?: number | undefined;
}

export interface NodeHealthShared {
  registry: Registry;
  clock: Clock;
  onError: ErrorSink;
  recordEvent: RecordEvent;
}

export interface NodeHealth {
  setKubeletDown(node: string, down: boolean): void;
  stop(): void;
}

export function startNodeHealth(options: NodeHealthOptions, shared: NodeHealthShared): NodeHealth {
  if (options.nodeLeases === false)
    return { setKubeletDown: () => undefined, stop: () => undefined };
  const leases = startNodeLeases({ ...shared, hosts: options.hosts ?? [] });
  const version = options.kubernetesVersion
    ? parseKubeVersion(options.kubernetesVersion)
    : undefined;
  const defaults = nodeMonitorDefaults(version?.minor);
  const monitor = startLeaseMonitor({
    ...shared,
    timings: {
      ...defaults,
      nodeMonitorGracePeriodMs:
        options.nodeMonitorGracePeriodMs ?? defaults.nodeMonitorGracePeriodMs,
    },
  });
  return {
    setKubeletDown: (node, down) => leases.setKubeletDown(node, down),
    stop() {
      monitor.stop();
      leases.stop();
    },
  };
}
