// Pod lifecycle on the simulated clock: pods bound to a node are run by the twin's kubelet;
// deleting one is graceful (deletionTimestamp, Terminating until the containers stop, then gone)
// unless forced; node readiness flows into every pod's Ready condition; changed ConfigMaps reach
// running pods at their next sync. While a node's kubelet is down none of this happens there.

import type { DeleteHook } from '../../registry/registry.js';
import type { ChangeEvent } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asArray } from '../../apimachinery/types.js';
import { isNodeReady, isPodTerminal, nodeName, nodesDef, podsDef, status } from '../kube.js';
import type { KubeletDeps, Track } from './kubelet.js';
import { containerNames, Kubelet } from './kubelet.js';
import { readyOnNode } from '../node-lifecycle/pod-readiness.js';
import type { Exit } from './pod-status.js';
import { terminationMessage } from './termination-message.js';
import type { VolumeSync } from './configmap-volumes.js';
import { mountedConfigMaps, queueConfigMap } from './configmap-volumes.js';

function dataChanged(now: KubeObject, before: KubeObject | undefined): boolean {
  const data = (o: KubeObject | undefined): string =>
    JSON.stringify([o?.['data'], o?.['binaryData']]);
  return data(now) !== data(before);
}

export type PodLifecycleOptions = KubeletDeps;

export interface ContainerExit {
  exitCode: number;
  reason: string;
  /** What the container wrote to its terminationMessagePath. */
  message?: string;
  /** Its log as it exited, for terminationMessagePolicy FallbackToLogsOnError. */
  logs?: readonly string[];
}

export interface PodLifecycle {
  /** A running pod's containers exited on their own (say kube-proxy died): it restarts. */
  containerExited(namespace: string, name: string, exit: ContainerExit): boolean;
  /** Stops or restarts the node's kubelet (the kubelet-down host fault). */
  setKubeletUp(node: string, up: boolean): void;
  kubeletUp(node: string): boolean;
  /** Whether the kubelet runs the pod's containers; undefined for pods it does not track. */
  containerRunning(pod: KubeObject): boolean | undefined;
  stop(): void;
}

/** The apiserver deletes unscheduled and finished pods at once; the rest wait for the kubelet. */
export const gracefulPodDeletion: DeleteHook = ({ resource, object }) =>
  resource.plural === 'pods' && nodeName(object) !== '' && !isPodTerminal(object)
    ? 'graceful'
    : undefined;

export function startPodLifecycle(deps: PodLifecycleOptions): PodLifecycle {
  const { registry, clock, scheduler, timings, recordEvent } = deps;
  const store = registry.store;
  const kubelet = new Kubelet(deps);
  /** Timers for pods the kubelet does not track (scenario pods) while they terminate. */
  const loose = new Set<() => void>();

  function terminate(pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    const t = kubelet.tracks.get(uid);
    if (t?.terminating) return;
    const running = t ? t.started : status(pod)['phase'] === 'Running';
    let stopMs = running ? timings.stopMs : 0;
    if (t) {
      t.timer?.();
      t.deadline?.();
      t.terminating = true;
      if (t.started) {
        for (const n of containerNames(pod))
          recordEvent(pod, 'Normal', 'Killing', `Stopping container ${n}`, kubelet.source(t.node));
        stopMs = kubelet.callStop(t, pod) ?? timings.stopMs;
      }
    }
    // The kubelet kills whatever still runs once the grace period is over.
    const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000;
    const finish = (): void => {
      const name = pod.metadata.name ?? '';
      if (store.get(podsDef, pod.metadata.namespace, name)?.metadata.uid !== uid) return;
      const options = { gracePeriodSeconds: 0, expectedUid: uid };
      registry.delete(podsDef, pod.metadata.namespace, name, options);
    };
    const delay = Math.min(stopMs, graceMs);
    if (t) {
      kubelet.schedule(t, delay, finish);
      return;
    }
    const cancel = scheduler.after(delay, () => {
      loose.delete(cancel);
      kubelet.act(nodeName(pod), `pod ${pod.metadata.name ?? ''}`, finish);
    });
    loose.add(cancel);
  }

  function removed(pod: KubeObject): void {
    const t: Track | undefined = kubelet.tracks.get(pod.metadata.uid ?? '');
    if (!t) return;
    t.timer?.();
    t.deadline?.();
    t.volumeTimer?.();
    kubelet.tracks.delete(t.uid);
    // A forced delete: the kubelet still kills the containers.
    kubelet.callStop(t, pod);
  }

  function nodeReadinessChanged(name: string): void {
    const node = store.get(nodesDef, undefined, name);
    if (!node) return;
    for (const pod of store.list(podsDef, { match: (p) => nodeName(p) === name }).items) {
      const t = kubelet.tracks.get(pod.metadata.uid ?? '');
      // With the kubelet down, the node lifecycle controller marks its pods (MarkPodsNotReady).
      if (t && kubelet.isUp(name)) kubelet.write(t);
      else readyOnNode(registry, pod, isNodeReady(node), clock.timestamp());
    }
  }

  function admitIfPending(object: KubeObject): void {
    const live = store.get(podsDef, object.metadata.namespace, object.metadata.name ?? '');
    if (!live || live.metadata.uid !== object.metadata.uid) return;
    const fresh = asArray(status(live)['containerStatuses']).length === 0;
    if (status(live)['phase'] === 'Pending' && fresh) kubelet.admit(live);
  }

  /** Store listeners must not write: every reaction runs from a timer, in event order. */
  function later(context: string, fn: () => void): void {
    scheduler.after(0, () => kubelet.guard(context, fn));
  }

  /** Like later(), by the pod's kubelet: held while it is down. */
  function byKubelet(pod: KubeObject, context: string, fn: () => void): void {
    scheduler.after(0, () => kubelet.act(nodeName(pod), context, fn));
  }

  const volumes: VolumeSync = {
    scheduler,
    now: () => clock.now(),
    periodMs: () => timings.configMapSyncMs,
    deliver: (t, names) =>
      kubelet.act(t.node, `pod ${t.namespace}/${t.name}`, () => {
        const pod = kubelet.current(t);
        if (!pod || t.terminating || kubelet.running(t.uid) !== true) return;
        deps.runtime.configMapsUpdated?.(pod, names);
      }),
  };

  /** The kubelet's configmap manager saw new data: running pods that mount it get it next sync. */
  function configMapChanged(cm: KubeObject): void {
    const namespace = cm.metadata.namespace ?? 'default';
    const name = cm.metadata.name ?? '';
    for (const t of kubelet.tracks.values()) {
      if (t.namespace !== namespace || t.terminating) continue;
      const pod = kubelet.current(t);
      if (pod && mountedConfigMaps(pod).has(name)) queueConfigMap(volumes, t, name);
    }
  }

  function onChange(event: ChangeEvent): void {
    const { object, oldObject } = event;
    if (event.resource.plural === 'nodes') {
      if (event.type === 'MODIFIED' && oldObject && isNodeReady(oldObject) !== isNodeReady(object))
        later(`node ${object.metadata.name ?? ''}`, () =>
          nodeReadinessChanged(object.metadata.name ?? ''),
        );
      return;
    }
    if (event.resource.plural === 'configmaps') {
      if (event.type === 'MODIFIED' && dataChanged(object, oldObject))
        later(`configmap ${object.metadata.name ?? ''}`, () => configMapChanged(object));
      return;
    }
    if (event.resource.plural !== 'pods') return;
    const context = `pod ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
    if (event.type === 'DELETED') byKubelet(object, context, () => removed(object));
    else if (object.metadata.deletionTimestamp !== undefined) {
      if (oldObject?.metadata.deletionTimestamp === undefined)
        byKubelet(object, context, () => terminate(object));
    } else if (nodeName(object) !== '' && (!oldObject || nodeName(oldObject) === '')) {
      byKubelet(object, context, () => admitIfPending(object));
    }
  }

  const unhook = registry.onDelete(gracefulPodDeletion);
  const unsubscribe = store.subscribe(onChange);
  for (const pod of store.list(podsDef).items) {
    const context = `pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    if (pod.metadata.deletionTimestamp !== undefined) byKubelet(pod, context, () => terminate(pod));
    else if (nodeName(pod) !== '') byKubelet(pod, context, () => admitIfPending(pod));
  }
  // A node the scenario already declares NotReady: its pods are marked as the node lifecycle
  // controller would.
  for (const node of store.list(nodesDef, { match: (n) => !isNodeReady(n) }).items)
    later(`node ${node.metadata.name ?? ''}`, () => nodeReadinessChanged(node.metadata.name ?? ''));
  return {
    containerExited(namespace, name, exit) {
      const pod = store.get(podsDef, namespace, name);
      const t = pod ? kubelet.tracks.get(pod.metadata.uid ?? '') : undefined;
      if (!pod || !t || t.terminating || t.state.kind !== 'running') return false;
      const startedAt = t.state.startedAt;
      kubelet.callStop(t, pod);
      const finished: Exit = {
        exitCode: exit.exitCode,
        reason: exit.reason,
        startedAt,
        finishedAt: clock.timestamp(),
      };
      const message = terminationMessage(pod, exit.exitCode, exit.message, exit.logs);
      if (message !== undefined) finished.message = message;
      kubelet.crash(t, pod, finished);
      return true;
    },
    setKubeletUp: (node, up) => kubelet.setUp(node, up),
    kubeletUp: (node) => kubelet.isUp(node),
    containerRunning: (pod) => kubelet.running(pod.metadata.uid ?? ''),
    stop() {
      unhook();
      unsubscribe();
      for (const t of kubelet.tracks.values()) {
        t.timer?.();
        t.deadline?.();
        t.volumeTimer?.();
      }
      kubelet.tracks.clear();
      for (const cancel of loose) cancel();
      loose.clear();
    },
  };
}
