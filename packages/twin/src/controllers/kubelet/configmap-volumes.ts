// ConfigMap volumes as the kubelet refreshes them: its configmap manager (Watch strategy) sees a
// change at once, but the volume's files are rewritten only when the pod worker syncs the pod,
// every syncFrequency after its first sync (the kubelet jitters each resync by up to +50%; the
// twin does not). A running container then sees the new files (kube-proxy exits on it).

import type { Cancel, Scheduler } from '../../clock.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';
import type { Track } from './kubelet.js';

/** The ConfigMaps the pod mounts as volumes (configMap and projected sources). */
export function mountedConfigMaps(pod: KubeObject): Set<string> {
  const names = new Set<string>();
  for (const v of asArray(asRecord(pod['spec'])['volumes']).filter(isJsonObject)) {
    const cm = asString(asRecord(v['configMap'])['name']);
    if (cm !== '') names.add(cm);
    for (const source of asArray(asRecord(v['projected'])['sources']).filter(isJsonObject)) {
      const projected = asString(asRecord(source['configMap'])['name']);
      if (projected !== '') names.add(projected);
    }
  }
  return names;
}

/** Delay until the pod's next periodic sync after `now`; 0 when syncs are instant. */
export function nextSyncDelayMs(admittedMs: number, now: number, periodMs: number): number {
  if (periodMs <= 0) return 0;
  const elapsed = Math.max(0, now - admittedMs);
  return (Math.floor(elapsed / periodMs) + 1) * periodMs - elapsed;
}

export interface VolumeSync {
  scheduler: Scheduler;
  now: () => number;
  periodMs: () => number;
  /** Runs at the sync, through the kubelet (which holds it while the node's kubelet is down). */
  deliver: (t: Track, names: readonly string[]) => void;
}

/** Queues a changed ConfigMap for the track's next sync; one sync delivers every change since. */
export function queueConfigMap(sync: VolumeSync, t: Track, name: string): void {
  t.pendingConfigMaps.add(name);
  if (t.volumeTimer !== undefined) return;
  const delay = nextSyncDelayMs(t.admittedMs, sync.now(), sync.periodMs());
  const cancel: Cancel = sync.scheduler.after(delay, () => {
    t.volumeTimer = undefined;
    const names = [...t.pendingConfigMaps];
    t.pendingConfigMaps.clear();
    sync.deliver(t, names);
  });
  t.volumeTimer = cancel;
}
