// A minimal default scheduler for pods created without a node (DaemonSet pods are bound at
// creation): the fitting node with the fewest pods wins; otherwise PodScheduled=False with the
// scheduler's "0/N nodes are available" message, retried whenever a node changes.

import type { Clock, Scheduler } from '../../clock.js';
import type { Registry } from '../../registry/registry.js';
import type { ChangeEvent } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord, asString, deepEqual } from '../../apimachinery/types.js';
import type { RecordEvent } from '../events.js';
import { conditions, nodeName, nodesDef, podsDef, spec, withCondition } from '../kube.js';
import type { UnfitReason } from './fit.js';
import { podUnfitReason } from './fit.js';
import type { ErrorSink } from '../work-queue.js';
import { createWorkQueue } from '../work-queue.js';
import { schedulerManager } from '../managers.js';

export interface BinderOptions {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  recordEvent: RecordEvent;
  onError: ErrorSink;
}

const reasonText: Record<UnfitReason, string> = {
  'node-name': "node(s) didn't match the requested node name",
  'node-affinity': "node(s) didn't match Pod's node affinity/selector",
  unschedulable: 'node(s) were unschedulable',
  taint: 'node(s) had untolerated taint(s)',
};

function wantsDefaultScheduler(pod: KubeObject): boolean {
  const name = asString(spec(pod)['schedulerName']);
  return name === '' || name === 'default-scheduler';
}

function unscheduled(pod: KubeObject): boolean {
  return (
    nodeName(pod) === '' &&
    pod.metadata.deletionTimestamp === undefined &&
    wantsDefaultScheduler(pod)
  );
}

export function startBinder(opts: BinderOptions): { stop(): void } {
  const { registry, clock, recordEvent } = opts;
  const store = registry.store;
  const queue = createWorkQueue(opts.scheduler, () => clock.now(), bind, opts.onError, 'scheduler');
  const key = (pod: KubeObject): string =>
    `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;

  function bind(podKey: string): void {
    const slash = podKey.indexOf('/');
    const pod = store.get(podsDef, podKey.slice(0, slash), podKey.slice(slash + 1));
    if (!pod || !unscheduled(pod)) return;
    const podSpec = spec(pod);
    const nodes = store.list(nodesDef).items;
    const counts = new Map<string, number>();
    for (const p of store.list(podsDef).items)
      counts.set(nodeName(p), (counts.get(nodeName(p)) ?? 0) + 1);
    const failures = new Map<UnfitReason, number>();
    let best: KubeObject | undefined;
    for (const node of nodes) {
      const reason = podUnfitReason(podSpec, node);
      if (reason) failures.set(reason, (failures.get(reason) ?? 0) + 1);
      else if (
        !best ||
        (counts.get(node.metadata.name ?? '') ?? 0) < (counts.get(best.metadata.name ?? '') ?? 0)
      )
        best = node;
    }
    if (best) {
      registry.bind(pod.metadata.namespace, pod.metadata.name ?? '', best.metadata.name ?? '');
      return;
    }
    const parts = [...failures.entries()].map(([reason, n]) => `${n} ${reasonText[reason]}`).sort();
    const message = `0/${nodes.length} nodes are available: ${parts.join(', ')}.`;
    const condition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message };
    const list = withCondition(conditions(pod), condition, clock.timestamp());
    if (deepEqual(conditions(pod), list)) return;
    registry.update(
      podsDef,
      { ...pod, status: { ...asRecord(pod['status']), conditions: list } },
      undefined,
      { subresource: 'status', manager: schedulerManager },
    );
    recordEvent(pod, 'Warning', 'FailedScheduling', message, { component: 'default-scheduler' });
  }

  function onChange(event: ChangeEvent): void {
    if (event.resource.plural === 'pods' && event.type === 'ADDED' && unscheduled(event.object))
      queue.add(key(event.object));
    if (event.resource.plural === 'nodes')
      for (const pod of store.list(podsDef, { match: unscheduled }).items) queue.add(key(pod));
  }

  const unsubscribe = store.subscribe(onChange);
  for (const pod of store.list(podsDef, { match: unscheduled }).items) queue.add(key(pod));
  return {
    stop() {
      unsubscribe();
      queue.stop();
    },
  };
}
