// The disruption controller (pkg/controller/disruption): keeps every PodDisruptionBudget's status
// (expected and healthy pods, disruptions allowed, observedGeneration, DisruptionAllowed) current
// from its matching pods, on the simulated clock. A failed sync turns into the failSafe status.

import type { Clock, Scheduler } from '../../clock.js';
import type { KubeObject } from '../../apimachinery/types.js';
import type { Registry } from '../../registry/registry.js';
import { resourceFor } from '../../registry/resources.js';
import type { ChangeEvent } from '../../store/store.js';
import type { RecordEvent } from '../events.js';
import { podsDef } from '../kube.js';
import type { ErrorSink } from '../work-queue.js';
import { createWorkQueue } from '../work-queue.js';
import { pdbSelects } from '../../registry/policy/budget-status.js';
import { disruptedPods, expectedPods, healthyPods } from './budget.js';
import { selectorString } from './selector-string.js';
import { failSafeStatus, nextStatus } from './status.js';
import { controllerManager } from '../managers.js';

export const pdbsDef = resourceFor('poddisruptionbudgets');

export interface DisruptionControllerOptions {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  recordEvent: RecordEvent;
  onError: ErrorSink;
}

export interface DisruptionController {
  stop(): void;
}

const source = { component: 'controllermanager' };

const keyOf = (pdb: KubeObject): string =>
  `${pdb.metadata.namespace ?? ''}/${pdb.metadata.name ?? ''}`;

export function startDisruptionController(opts: DisruptionControllerOptions): DisruptionController {
  const { registry, clock, recordEvent } = opts;
  const store = registry.store;
  const queue = createWorkQueue(
    opts.scheduler,
    () => clock.now(),
    sync,
    opts.onError,
    'disruption',
  );

  /** getPdbForPod: the first budget that selects the pod (the controller warns about more). */
  function enqueueFor(pod: KubeObject): void {
    const pdb = store.list(pdbsDef, {
      namespace: pod.metadata.namespace,
      match: (p) => pdbSelects(p, pod),
    }).items[0];
    if (pdb) queue.add(keyOf(pdb));
  }

  function onChange(event: ChangeEvent): void {
    if (event.resource === pdbsDef) queue.add(keyOf(event.object));
    else if (event.resource === podsDef) enqueueFor(event.object);
    // A Deployment's replicas are a budget's expected count (getPodDeployment's scale).
    else if (event.resource.plural === 'deployments')
      for (const pdb of store.list(pdbsDef, { namespace: event.object.metadata.namespace }).items)
        queue.add(keyOf(pdb));
  }

  function sync(key: string): void {
    const slash = key.indexOf('/');
    const pdb = store.get(pdbsDef, key.slice(0, slash), key.slice(slash + 1));
    if (!pdb) return;
    const pods = store.list(podsDef, {
      namespace: pdb.metadata.namespace,
      match: (p) => pdbSelects(pdb, p),
    }).items;
    if (pods.length === 0) recordEvent(pdb, 'Normal', 'NoPods', 'No matching pods found', source);
    const expected = expectedPods(store, pdb, pods);
    const now = clock.now();
    let status;
    if ('error' in expected) {
      const message = `Failed to calculate the number of expected pods: ${expected.error}`;
      recordEvent(pdb, 'Warning', 'CalculateExpectedPodCountFailed', message, source);
      status = failSafeStatus(pdb, expected.error, clock.timestamp());
    } else {
      if (expected.unmanaged.length > 0) {
        const message =
          `Pods selected by this PodDisruptionBudget (selector: ${selectorString(pdb)}) were found ` +
          'to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. ' +
          'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.';
        recordEvent(pdb, 'Warning', 'UnmanagedPods', message, source);
      }
      const disrupted = disruptedPods(pdb, pods, now);
      for (const pod of disrupted.expired) {
        const message = `Pod was expected by PDB ${keyOf(pdb)} to be deleted but it wasn't`;
        recordEvent(pod, 'Warning', 'NotDeleted', message, source);
      }
      status = nextStatus(
        pdb,
        {
          currentHealthy: healthyPods(pods, disrupted.map, now),
          desiredHealthy: expected.desiredHealthy,
          expectedPods: expected.expectedCount,
          disruptedPods: disrupted.map,
        },
        clock.timestamp(),
      );
      // An approved eviction that never became a deletion stops counting after DeletionTimeout.
      if (disrupted.recheckAt !== undefined) queue.addAfter(key, disrupted.recheckAt - now);
    }
    if (status === undefined) return;
    registry.update(pdbsDef, { ...pdb, status }, pdb.metadata.resourceVersion, {
      subresource: 'status',
      manager: controllerManager,
    });
  }

  const unsubscribe = store.subscribe(onChange);
  for (const pdb of store.list(pdbsDef).items) queue.add(keyOf(pdb));
  return {
    stop() {
      unsubscribe();
      queue.stop();
    },
  };
}
