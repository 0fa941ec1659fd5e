// The garbage collector (pkg/controller/garbagecollector) for every served kind but events:
// dependents whose owners are all gone are deleted (background, or as their own finalizers say),
// dangling references next to a live owner are removed, `orphan` owners have their dependents'
// references removed and then lose the finalizer, and `foregroundDeletion` owners wait until no
// blocking dependent is left. It works from ownerReferences only, on the simulated clock.

import type { Clock, Scheduler } from '../../clock.js';
import type { KubeObject } from '../../apimachinery/types.js';
import type { PropagationPolicy } from '../../registry/deletion.js';
import { foregroundFinalizer, orphanFinalizer } from '../../registry/deletion.js';
import type { Registry } from '../../registry/registry.js';
import { resourceFor, resources } from '../../registry/resources.js';
import type { ChangeEvent } from '../../store/store.js';
import { asString, deepEqual } from '../../apimachinery/types.js';
import type { ErrorSink } from '../work-queue.js';
import { createWorkQueue } from '../work-queue.js';
import type { Identity } from './identity.js';
import {
  hasFinalizer,
  hasOwnerRefs,
  identityOf,
  keyOf,
  live,
  ownerIdentity,
  ownerRefs,
  parseKey,
} from './identity.js';
import { OwnerIndex } from './owner-index.js';
import { controllerManager } from '../managers.js';

export interface GarbageCollectorOptions {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  onError: ErrorSink;
}

export interface GarbageCollector {
  stop(): void;
}

/** DefaultIgnoredResources: events are never owners or dependents worth tracking. */
const ignored = new Set(['events']);

function deleting(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata.deletionTimestamp !== undefined && hasFinalizer(obj, finalizer);
}

export function startGarbageCollector(opts: GarbageCollectorOptions): GarbageCollector {
  const { registry } = opts;
  const store = registry.store;
  const index = new OwnerIndex();
  const now = (): number => opts.clock.now();
  const attempts = createWorkQueue(opts.scheduler, now, attemptToDelete, opts.onError, 'gc');
  const orphans = createWorkQueue(opts.scheduler, now, attemptToOrphan, opts.onError, 'gc-orphan');

  const queueDelete = (id: Identity): void => attempts.add(keyOf(id));
  const queueDependents = (uid: string): void => {
    for (const dep of index.dependents(uid)) queueDelete(dep.id);
  };
  const queueOwners = (obj: KubeObject): void => {
    for (const ref of ownerRefs(obj)) {
      const owner = ownerIdentity(ref, obj.metadata.namespace ?? '');
      if (owner) queueDelete(owner);
    }
  };

  /**
   * Whether attemptToDelete has anything to decide for a dependent: some owner is missing or is
   * being deleted in the foreground. The GraphBuilder likewise queues only dependents of absent
   * (virtual) or deleting owners, so a DaemonSet's new pod costs no queue round trip.
   */
  function ownersNeedCheck(obj: KubeObject): boolean {
    const namespace = obj.metadata.namespace ?? '';
    for (const ref of ownerRefs(obj)) {
      const ownerId = ownerIdentity(ref, namespace);
      if (!ownerId) continue;
      const owner = live(store, ownerId);
      if (!owner || deleting(owner, foregroundFinalizer)) return true;
    }
    return false;
  }

  function onChange(event: ChangeEvent): void {
    const def = event.resource;
    if (ignored.has(def.plural)) return;
    const { object, oldObject } = event;
    if (event.type === 'DELETED') {
      index.update(def, object, undefined);
      // Its dependents may now be dangling; an owner waiting on it may now be free.
      queueDependents(object.metadata.uid ?? '');
      queueOwners(object);
      return;
    }
    // Status writes (the kubelet's, most of the boot) change no reference: nothing to re-index.
    const refsChanged = !oldObject || !deepEqual(ownerRefs(oldObject), ownerRefs(object));
    if (refsChanged) index.update(def, oldObject, object);
    const orphaning = deleting(object, orphanFinalizer);
    const foreground = deleting(object, foregroundFinalizer);
    if (!refsChanged && !orphaning && !foreground) return;
    const id = identityOf(def, object);
    if (orphaning && !(oldObject && deleting(oldObject, orphanFinalizer))) orphans.add(keyOf(id));
    if (foreground && !(oldObject && deleting(oldObject, foregroundFinalizer))) {
      queueDependents(id.uid);
      queueDelete(id);
    }
    if (refsChanged && hasOwnerRefs(object) && ownersNeedCheck(object)) queueDelete(id);
    // A reference that went away may have been the last one blocking a foreground owner.
    if (refsChanged && oldObject) queueOwners(oldObject);
  }

  /** attemptToDeleteItem: classify the owners, then delete, unlink or leave the object. */
  function attemptToDelete(key: string): void {
    const id = parseKey(key);
    const obj = live(store, id);
    if (!obj) return;
    if (obj.metadata.deletionTimestamp !== undefined) {
      if (hasFinalizer(obj, foregroundFinalizer)) processDeletingDependents(obj, id);
      return;
    }
    const refs = ownerRefs(obj);
    if (refs.length === 0) return;
    const solid: string[] = [];
    const gone: string[] = [];
    let waiting = false;
    for (const ref of refs) {
      const ownerId = ownerIdentity(ref, id.namespace);
      // An owner the twin cannot resolve: the real GC errors and retries, touching nothing.
      if (!ownerId) return;
      const owner = live(store, ownerId);
      if (!owner) gone.push(ownerId.uid);
      else if (deleting(owner, foregroundFinalizer)) {
        waiting = true;
        gone.push(ownerId.uid);
      } else solid.push(ownerId.uid);
    }
    if (solid.length > 0) {
      if (gone.length > 0) removeOwnerRefs(obj, id, new Set(gone));
      return;
    }
    let policy: PropagationPolicy = 'Background';
    if (waiting && index.dependents(id.uid).length > 0) policy = 'Foreground';
    else if (hasFinalizer(obj, orphanFinalizer)) policy = 'Orphan';
    else if (hasFinalizer(obj, foregroundFinalizer)) policy = 'Foreground';
    registry.delete(resourceFor(id.plural), id.namespace || undefined, id.name, {
      expectedUid: id.uid,
      propagationPolicy: policy,
    });
  }

  /** processDeletingDependentsItem: the finalizer goes once no blocking dependent is left. */
  function processDeletingDependents(owner: KubeObject, id: Identity): void {
    const blocking = index.dependents(id.uid).filter((d) => d.blocking);
    if (blocking.length === 0) {
      removeFinalizer(owner, id, foregroundFinalizer);
      return;
    }
    for (const dep of blocking) queueDelete(dep.id);
  }

  /** attemptToOrphanWorker: unlink every dependent, then drop the `orphan` finalizer. */
  function attemptToOrphan(key: string): void {
    const id = parseKey(key);
    const owner = live(store, id);
    if (!owner || !deleting(owner, orphanFinalizer)) return;
    for (const dep of index.dependents(id.uid)) {
      const obj = live(store, dep.id);
      if (obj) removeOwnerRefs(obj, dep.id, new Set([id.uid]));
    }
    removeFinalizer(owner, id, orphanFinalizer);
  }

  function removeOwnerRefs(obj: KubeObject, id: Identity, uids: ReadonlySet<string>): void {
    const kept = ownerRefs(obj).filter((ref) => !uids.has(asString(ref['uid'])));
    const metadata = { ...obj.metadata };
    if (kept.length > 0) metadata.ownerReferences = kept;
    else delete metadata.ownerReferences;
    const def = resourceFor(id.plural);
    registry.update(def, { ...obj, metadata }, obj.metadata.resourceVersion, {
      manager: controllerManager,
    });
  }

  function removeFinalizer(obj: KubeObject, id: Identity, finalizer: string): void {
    const kept = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    const metadata = { ...obj.metadata };
    if (kept.length > 0) metadata.finalizers = kept;
    else delete metadata.finalizers;
    const def = resourceFor(id.plural);
    registry.update(def, { ...obj, metadata }, obj.metadata.resourceVersion, {
      manager: controllerManager,
    });
  }

  const unsubscribe = store.subscribe(onChange);
  // The initial list, in one pass: the queues run later, once the whole index is built.
  for (const def of resources) {
    if (ignored.has(def.plural)) continue;
    for (const obj of store.list(def).items) {
      const owned = hasOwnerRefs(obj);
      const orphaning = deleting(obj, orphanFinalizer);
      const foreground = deleting(obj, foregroundFinalizer);
      if (!owned && !orphaning && !foreground) continue;
      index.update(def, undefined, obj);
      const id = identityOf(def, obj);
      if (orphaning) orphans.add(keyOf(id));
      if ((owned && ownersNeedCheck(obj)) || foreground) queueDelete(id);
    }
  }
  return {
    stop() {
      unsubscribe();
      attempts.stop();
      orphans.stop();
    },
  };
}
