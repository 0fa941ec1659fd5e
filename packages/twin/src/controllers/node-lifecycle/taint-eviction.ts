// Taint-based eviction (pkg/controller/tainteviction): a pod on a node with NoExecute taints is
// deleted at once unless every such taint is tolerated, or after the shortest tolerationSeconds
// of the tolerations used, counted on the simulated clock from when the pod was first seen
// tainted. Removing the taints (or adding a toleration) cancels a pending eviction.

import type { Cancel, Clock, Scheduler } from '../../clock.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, deepEqual, isJsonObject } from '../../apimachinery/types.js';
import type { Registry } from '../../registry/registry.js';
import type { ChangeEvent } from '../../store/store.js';
import type { RecordEvent } from '../events.js';
import { nodeName, nodesDef, podsDef } from '../kube.js';
import { nodeTaints, podTolerations, tolerates } from '../scheduler/taints.js';
import type { ErrorSink } from '../work-queue.js';
import { createWorkQueue } from '../work-queue.js';
import { controllerManager } from '../managers.js';

export interface TaintEvictionOptions {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  recordEvent: RecordEvent;
  onError: ErrorSink;
}

export interface TaintEviction {
  stop(): void;
}

/** The controller's name in kube-controller-manager, also its events' source. */
const source = { component: 'taint-eviction-controller' };

function noExecuteTaints(node: KubeObject | undefined): JsonObject[] {
  return node ? nodeTaints(node).filter((t) => t['effect'] === 'NoExecute') : [];
}

/**
 * GetMatchingTolerations then getMinTolerationTime: undefined when some taint is not tolerated
 * (evict now), -1 when the tolerations hold forever, else the delay in ms.
 */
export function tolerationMs(
  taints: readonly JsonObject[],
  tolerations: readonly JsonObject[],
): number | undefined {
  const used: JsonObject[] = [];
  for (const taint of taints) {
    const match = tolerations.find((t) => tolerates(t, taint));
    if (!match) return undefined;
    used.push(match);
  }
  if (used.length === 0) return 0;
  let min = Infinity;
  for (const t of used) {
    const seconds = t['tolerationSeconds'];
    if (typeof seconds !== 'number') continue;
    if (seconds <= 0) return 0;
    min = Math.min(min, seconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

interface Scheduled {
  createdAt: number;
  fireAt: number;
  cancel: Cancel;
}

export function startTaintEviction(opts: TaintEvictionOptions): TaintEviction {
  const { registry, clock, recordEvent } = opts;
  const store = registry.store;
  const scheduled = new Map<string, Scheduled>();
  const tainted = new Map<string, JsonObject[]>();
  const nodes = createWorkQueue(
    opts.scheduler,
    () => clock.now(),
    handleNode,
    opts.onError,
    'noexec-node',
  );
  const pods = createWorkQueue(
    opts.scheduler,
    () => clock.now(),
    handlePod,
    opts.onError,
    'noexec-pod',
  );

  const podKey = (pod: KubeObject): string =>
    `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

  function cancel(key: string): void {
    const work = scheduled.get(key);
    if (!work) return;
    work.cancel();
    scheduled.delete(key);
    const [namespace = '', name = ''] = key.split('/');
    const ref: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } };
    recordEvent(ref, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`, source);
  }

  function schedule(key: string, createdAt: number, fireAt: number): void {
    const stop = opts.scheduler.after(fireAt - clock.now(), () => {
      scheduled.delete(key);
      try {
        evict(key);
      } catch (error) {
        opts.onError(error, `taint eviction ${key}`);
      }
    });
    scheduled.set(key, { createdAt, fireAt, cancel: stop });
  }

  /** processPodOnNode. */
  function process(pod: KubeObject, taints: readonly JsonObject[], now: number): void {
    const key = podKey(pod);
    if (taints.length === 0) cancel(key);
    const delay = tolerationMs(taints, podTolerations(asRecord(pod['spec'])));
    if (delay === undefined) {
      cancel(key);
      schedule(key, now, now);
      return;
    }
    if (delay < 0) {
      cancel(key);
      return;
    }
    let createdAt = now;
    const existing = scheduled.get(key);
    if (existing) {
      createdAt = existing.createdAt;
      if (createdAt + delay < now + delay) return;
      cancel(key);
    }
    schedule(key, createdAt, createdAt + delay);
  }

  /** deletePodHandler: an event, the DisruptionTarget condition, then a plain DELETE. */
  function evict(key: string): void {
    const [namespace = '', name = ''] = key.split('/');
    const pod = store.get(podsDef, namespace, name);
    const ref: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } };
    recordEvent(ref, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`, source);
    if (!pod) return;
    const status = asRecord(pod['status']);
    const conditions = asArray(status['conditions']).filter(isJsonObject);
    const old = conditions.find((c) => c['type'] === 'DisruptionTarget');
    const condition: JsonObject = {
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime:
        old?.['status'] === 'True' ? (old['lastTransitionTime'] ?? null) : clock.timestamp(),
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    };
    if (!old || !deepEqual(old, condition)) {
      const next = old
        ? conditions.map((c) => (c === old ? condition : c))
        : [...conditions, condition];
      // utilpod.PatchPodStatus from the controller manager's client: a status Update entry.
      registry.update(podsDef, { ...pod, status: { ...status, conditions: next } }, undefined, {
        subresource: 'status',
        manager: controllerManager,
      });
    }
    registry.delete(podsDef, namespace, name);
  }

  function handleNode(name: string): void {
    const node = store.get(nodesDef, undefined, name);
    const taints = noExecuteTaints(node);
    if (taints.length === 0) tainted.delete(name);
    else tainted.set(name, taints);
    // An untainted node with no eviction pending anywhere: no pod to look at (the boot's case).
    if (!node || (taints.length === 0 && scheduled.size === 0)) return;
    const onNode = store.list(podsDef, { match: (p) => nodeName(p) === name }).items;
    const now = clock.now();
    for (const pod of onNode) {
      if (taints.length === 0) cancel(podKey(pod));
      else process(pod, taints, now);
    }
  }

  function handlePod(key: string): void {
    const [namespace = '', name = ''] = key.split('/');
    const pod = store.get(podsDef, namespace, name);
    if (!pod) {
      cancel(key);
      return;
    }
    const taints = tainted.get(nodeName(pod));
    if (taints) process(pod, taints, clock.now());
  }

  function onChange(event: ChangeEvent): void {
    const { object, oldObject } = event;
    if (event.resource === nodesDef) {
      const unchanged =
        event.type === 'MODIFIED' && deepEqual(noExecuteTaints(oldObject), noExecuteTaints(object));
      if (!unchanged) nodes.add(object.metadata.name ?? '');
      return;
    }
    if (event.resource !== podsDef) return;
    if (event.type === 'MODIFIED' && oldObject) {
      const same =
        nodeName(oldObject) === nodeName(object) &&
        deepEqual(
          podTolerations(asRecord(oldObject['spec'])),
          podTolerations(asRecord(object['spec'])),
        );
      if (same) return;
    }
    if (nodeName(object) !== '' || event.type === 'DELETED') pods.add(podKey(object));
  }

  const unsubscribe = store.subscribe(onChange);
  for (const node of store.list(nodesDef).items) nodes.add(node.metadata.name ?? '');
  return {
    stop() {
      unsubscribe();
      nodes.stop();
      pods.stop();
      for (const work of scheduled.values()) work.cancel();
      scheduled.clear();
    },
  };
}
