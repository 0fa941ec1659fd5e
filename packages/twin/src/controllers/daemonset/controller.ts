// The DaemonSet controller: one pod per eligible node, rolled per updateStrategy, with revisions
// and status kept current. It reacts to DaemonSet, Node and Pod changes through a work queue; the
// pods and revisions of a deleted DaemonSet are the garbage collector's (controllers/garbage-collector).

import type { Clock, Scheduler } from '../../clock.js';
import type { Registry } from '../../registry/registry.js';
import type { ChangeEvent } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asNumber, asString } from '../../apimachinery/types.js';
import type { Plan } from './plan.js';
import { planManage, planRollingUpdate } from './plan.js';
import { newDaemonPod } from './pods.js';
import type { Revision } from './spec.js';
import {
  minReadySeconds,
  rollingLimits,
  scaledValue,
  templateGeneration,
  updateStrategy,
} from './spec.js';
import { daemonSetStatus } from './status.js';
import type { RecordEvent } from '../events.js';
import { nameSuffix, templateHash } from '../hash.js';
import { controllerOf, daemonSetsDef, podsDef, spec, status } from '../kube.js';
import { syncRevisions } from './revisions.js';
import { collectSlots } from './slots.js';
import type { ErrorSink } from '../work-queue.js';
import { createWorkQueue } from '../work-queue.js';
import { controllerManager } from '../managers.js';

export interface DaemonSetControllerOptions {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  recordEvent: RecordEvent;
  onError: ErrorSink;
}

export interface DaemonSetController {
  stop(): void;
}

const source = { component: 'daemonset-controller' };

function dsKey(namespace: string | undefined, name: string): string {
  return `ds:${namespace ?? 'default'}/${name}`;
}

function templateOf(ds: KubeObject | undefined): unknown {
  return ds ? spec(ds)['template'] : undefined;
}

export function startDaemonSetController(opts: DaemonSetControllerOptions): DaemonSetController {
  const { registry, clock, recordEvent } = opts;
  const store = registry.store;
  const podCounters = new Map<string, number>();

  const queue = createWorkQueue(
    opts.scheduler,
    () => clock.now(),
    handle,
    opts.onError,
    'daemonset',
  );

  function onChange(event: ChangeEvent): void {
    const plural = event.resource.plural;
    if (plural === 'daemonsets') onDaemonSetChange(event);
    else if (plural === 'nodes') enqueueAll();
    else if (plural === 'pods') {
      const owner = controllerOf(event.object);
      if (owner?.['kind'] === 'DaemonSet')
        queue.add(dsKey(event.object.metadata.namespace, asString(owner['name'])));
    }
  }

  function onDaemonSetChange(event: ChangeEvent): void {
    const ds = event.object;
    const key = dsKey(ds.metadata.namespace, ds.metadata.name ?? '');
    if (event.type !== 'DELETED') queue.add(key);
  }

  function enqueueAll(): void {
    for (const ds of store.list(daemonSetsDef).items)
      queue.add(dsKey(ds.metadata.namespace, ds.metadata.name ?? ''));
  }

  function handle(key: string): void {
    const rest = key.slice(key.indexOf(':') + 1);
    const slash = rest.indexOf('/');
    sync(key, rest.slice(0, slash), rest.slice(slash + 1));
  }

  function sync(key: string, namespace: string, name: string): void {
    const ds = store.get(daemonSetsDef, namespace, name);
    if (!ds || ds.metadata.deletionTimestamp !== undefined) return;
    const collisionCount = status(ds)['collisionCount'];
    const revision: Revision = {
      hash: templateHash(templateOf(ds), asNumber(collisionCount)),
      generation: templateGeneration(ds),
      minReadySeconds: minReadySeconds(ds),
    };
    const ctx = { revision, now: clock.now() };
    const strategy = updateStrategy(ds);
    let snapshot = collectSlots(store, ds);
    syncRevisions(registry, ds, revision, snapshot.liveHashes);
    const surge = strategy.type === 'RollingUpdate' && scaledValue(strategy.maxSurge, 1) !== 0;
    let plan = planManage(snapshot.slots, snapshot.strayPods, surge, ctx);
    // Like the real controller's expectations: roll only once manage() has nothing to do.
    if (isEmpty(plan) && strategy.type === 'RollingUpdate') {
      const desired = snapshot.slots.filter((s) => s.placement.shouldRun).length;
      const rolling = snapshot.slots.filter((s) => s.pods.length > 0 || s.placement.shouldRun);
      plan = planRollingUpdate(rolling, { ...rollingLimits(strategy, desired), desired }, ctx);
    }
    if (!isEmpty(plan)) {
      execute(ds, plan, revision);
      snapshot = collectSlots(store, ds);
    }
    const next = daemonSetStatus({
      slots: snapshot.slots,
      revision,
      observedGeneration: ds.metadata.generation ?? 1,
      now: clock.now(),
      collisionCount: typeof collisionCount === 'number' ? collisionCount : undefined,
    });
    registry.update(daemonSetsDef, { ...ds, status: next }, undefined, {
      subresource: 'status',
      manager: controllerManager,
    });
    // Pods that are Ready but not yet available for minReadySeconds need another look later.
    if (revision.minReadySeconds > 0 && next['numberReady'] !== (next['numberAvailable'] ?? 0))
      queue.addAfter(key, revision.minReadySeconds * 1000);
  }

  function execute(ds: KubeObject, plan: Plan, revision: Revision): void {
    for (const node of plan.createOn) {
      const pod = newDaemonPod({ ds, node, name: podName(ds, node), revision });
      registry.create(podsDef, pod, { manager: controllerManager });
      const message = `Created pod: ${pod.metadata.name ?? ''}`;
      recordEvent(ds, 'Normal', 'SuccessfulCreate', message, source);
    }
    for (const pod of plan.deletePods) {
      const name = pod.metadata.name ?? '';
      if (!store.get(podsDef, pod.metadata.namespace, name)) continue;
      registry.delete(podsDef, pod.metadata.namespace, name, { expectedUid: pod.metadata.uid });
      recordEvent(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`, source);
    }
  }

  /** Seeded by the DaemonSet's name, so a scenario replays with the same pod names. */
  function podName(ds: KubeObject, node: string): string {
    const owner = `${ds.metadata.namespace ?? ''}/${ds.metadata.name ?? ''}`;
    for (;;) {
      const n = (podCounters.get(owner) ?? 0) + 1;
      podCounters.set(owner, n);
      const name = `${ds.metadata.name ?? ''}-${nameSuffix(`${owner}/${node}/${n}`)}`;
      if (!store.get(podsDef, ds.metadata.namespace, name)) return name;
    }
  }

  const unsubscribe = store.subscribe(onChange);
  enqueueAll();
  return {
    stop() {
      unsubscribe();
      queue.stop();
    },
  };
}

function isEmpty(plan: Plan): boolean {
  return plan.createOn.length === 0 && plan.deletePods.length === 0;
}
