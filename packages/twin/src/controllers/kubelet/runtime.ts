// The hook between the pod lifecycle and the node model: the node model decides whether a pod's
// containers start (kube-proxy may crash on a faulty host) and how long they take to stop.

import type { KubeObject } from '../../apimachinery/types.js';

export type StartResult =
  | { ok: true }
  | {
      ok: false;
      exitCode: number;
      reason: string;
      /** What the container wrote to its terminationMessagePath. */
      message?: string;
      /** Its log as it exited, for terminationMessagePolicy FallbackToLogsOnError. */
      logs?: readonly string[];
    };

export interface PodRuntime {
  /**
   * Called when the pod's containers start on its node; may fail (crash) or succeed.
   * Re-evaluated on each restart attempt of a crashing pod.
   */
  start(pod: KubeObject): StartResult;
  /**
   * Called when the containers stop (deletion or crash), once for every start() call; returns
   * the simulated ms it takes to stop (only a graceful deletion waits for it).
   */
  stop(pod: KubeObject): number | void;
  /**
   * The kubelet rewrote the pod's ConfigMap volumes at a sync, after these ConfigMaps changed
   * (a process watching its files, such as kube-proxy's --config, sees it now).
   */
  configMapsUpdated?(pod: KubeObject, names: readonly string[]): void;
}

/** Every pod starts fine and stops in the default time. */
export const defaultRuntime: PodRuntime = {
  start: () => ({ ok: true }),
  stop: () => undefined,
};

export interface PodTimings {
  /** From scheduling to the containers starting (image present, sandbox created). */
  startMs: number;
  /** How long stopping takes when the runtime does not say. */
  stopMs: number;
  /** The kubelet's syncFrequency: a changed ConfigMap reaches mounted volumes at the next sync. */
  configMapSyncMs: number;
  /** Readiness probes take their initialDelaySeconds and periodSeconds (off while booting). */
  probeDelays: boolean;
}

/** scenario/timings.ts documents where each default comes from. */
export const defaultTimings: PodTimings = {
  startMs: 2000,
  stopMs: 1000,
  configMapSyncMs: 60_000,
  probeDelays: true,
};

const initialBackoffMs = 10_000;
const maxBackoffMs = 300_000;
/** The kubelet restarts a container that failed once on its next pod sync, about a second later. */
export const firstRestartMs = 1000;
/** A container that ran this long resets its backoff, as the kubelet's backoff GC does. */
export const backoffResetMs = 2 * maxBackoffMs;

/**
 * Delay before restarting after the n-th consecutive failure: the first restart is immediate
 * (one sync later), then the kubelet's CrashLoopBackOff: 10s, 20s, 40s … capped at 5 minutes.
 */
export function crashBackoffMs(failures: number): number {
  if (failures <= 1) return 0;
  return Math.min(initialBackoffMs * 2 ** (failures - 2), maxBackoffMs);
}
