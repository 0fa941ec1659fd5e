// The simulated delays of a node (scenario `spec.timings`, all optional), with the defaults the
// twin takes from the Kubernetes sources when a scenario leaves one out.

import type { ScenarioTimings } from './schema.js';

export interface Timings {
  /** Scheduling to containers started: sandbox, CNI and image already present (a typical node). */
  readonly podStartMs: number;
  /** How long stopping takes when the runtime does not say (capped by the grace period). */
  readonly podStopMs: number;
  /**
   * The kubelet's syncFrequency (pkg/kubelet/apis/config/v1beta1/defaults.go: 1m): a changed
   * ConfigMap reaches a mounted volume only at the pod's next sync (the Watch change-detection
   * strategy keeps the cache current, the volume is rewritten when the pod worker syncs).
   */
  readonly configMapSyncMs: number;
  /**
   * From kube-proxy's start to its first sync: the informers sync, then the bounded-frequency
   * runner waits minSyncPeriod (pkg/proxy/apis/config/v1alpha1/defaults.go: 1s).
   */
  readonly kubeProxyFirstSyncMs: number;
  /**
   * The node lifecycle controller's --node-monitor-grace-period: 50s from v1.32
   * (kubernetes#126287), 40s before. A node whose kubelet is down turns Unknown after it.
   */
  readonly nodeMonitorGracePeriodMs: number;
}

function minorOf(kubernetesVersion: string): number {
  const m = /^v?1\.(\d+)/.exec(kubernetesVersion);
  return m ? Number(m[1]) : 33;
}

export function defaultTimings(kubernetesVersion: string): Timings {
  return {
    podStartMs: 2000,
    podStopMs: 1000,
    configMapSyncMs: 60_000,
    kubeProxyFirstSyncMs: 1000,
    nodeMonitorGracePeriodMs: minorOf(kubernetesVersion) >= 32 ? 50_000 : 40_000,
  };
}

/** The scenario's timings over the defaults; seconds in, milliseconds out. */
export function resolveTimings(
  kubernetesVersion: string,
  spec: ScenarioTimings | undefined,
): Timings {
  const d = defaultTimings(kubernetesVersion);
  const ms = (s: number | undefined, fallback: number): number =>
    s === undefined ? fallback : s * 1000;
  return {
    podStartMs: ms(spec?.podStartSeconds, d.podStartMs),
    podStopMs: ms(spec?.podStopSeconds, d.podStopMs),
    configMapSyncMs: ms(spec?.configMapSyncSeconds, d.configMapSyncMs),
    kubeProxyFirstSyncMs: ms(spec?.kubeProxyFirstSyncSeconds, d.kubeProxyFirstSyncMs),
    nodeMonitorGracePeriodMs: ms(spec?.nodeMonitorGracePeriodSeconds, d.nodeMonitorGracePeriodMs),
  };
}
