// Pod lifecycle on the simulated clock: pods bound to a node are run by the twin's kubelet;
// deleting one is graceful (deletionTimestamp, Terminating until the containers stop, then gone)
// unless forced; node readiness flows into every pod's Ready condition.

import type { DeleteHook } from '../../registry/registry.js';
import type { ChangeEvent } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asArray } from '../../apimachinery/types.js';
import { isNodeReady, isPodTerminal, nodeName, nodesDef, podsDef, status } from '../kube.js';
import type { KubeletDeps, Track } from './kubelet.js';
import { containerNames, Kubelet } from './kubelet.js';
import { readyOnNode } from '../node-lifecycle/pod-readiness.js';

export type PodLifecycleOptions = KubeletDeps;

export interface ContainerExit {
  exitCode: number;
  reason: string;
  message?: string;
}

export interface PodLifecycle {
  /** A running pod's containers exited on their own (say kube-proxy died): it restarts. */
  containerExited(namespace: string, name: string, exit: ContainerExit): boolean;
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
      kubelet.guard(`pod ${pod.metadata.name ?? ''}`, finish);
    });
    loose.add(cancel);
  }

  function removed(pod: KubeObject): void {
    const t: Track | undefined = kubelet.tracks.get(pod.metadata.uid ?? '');
    if (!t) return;
    t.timer?.();
    t.deadline?.();
    kubelet.tracks.delete(t.uid);
    // A forced delete: the kubelet still kills the containers.
    kubelet.callStop(t, pod);
  }

  function nodeReadinessChanged(name: string): void {
    const node = store.get(nodesDef, undefined, name);
    if (!node) return;
    for (const pod of store.list(podsDef, { match: (p) => nodeName(p) === name }).items) {
      const t = kubelet.tracks.get(pod.metadata.uid ?? '');
      if (t) kubelet.write(t);
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

  function onChange(event: ChangeEvent): void {
    const { object, oldObject } = event;
    if (event.resource.plural === 'nodes') {
      if (event.type === 'MODIFIED' && oldObject && isNodeReady(oldObject) !== isNodeReady(object))
        later(`node ${object.metadata.name ?? ''}`, () =>
          nodeReadinessChanged(object.metadata.name ?? ''),
        );
      return;
    }
    if (event.resource.plural !== 'pods') return;
    const context = `pod ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
    if (event.type === 'DELETED') later(context, () => removed(object));
    else if (object.metadata.deletionTimestamp !== undefined) {
      if (oldObject?.metadata.deletionTimestamp === undefined)
        later(context, () => terminate(object));
    } else if (nodeName(object) !== '' && (!oldObject || nodeName(oldObject) === '')) {
      later(context, () => admitIfPending(object));
    }
  }

  const unhook = registry.onDelete(gracefulPodDeletion);
  const unsubscribe = store.subscribe(onChange);
  for (const pod of store.list(podsDef).items) {
    const context = `pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    if (pod.metadata.deletionTimestamp !== undefined) later(context, () => terminate(pod));
    else if (nodeName(pod) !== '') later(context, () => admitIfPending(pod));
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
      kubelet.crash(t, pod, { ...exit, startedAt, finishedAt: clock.timestamp() });
      return true;
    },
    stop() {
      unhook();
      unsubscribe();
      for (const t of kubelet.tracks.values()) {
        t.timer?.();
        t.deadline?.();
      }
      kubelet.tracks.clear();
      for (const cancel of loose) cancel();
      loose.clear();
    },
  };
}
