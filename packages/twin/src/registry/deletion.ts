// What the apiserver's generic store decides on DELETE before anything is removed
// (apiserver/pkg/registry/generic/registry/store.go and rest/delete.go): which garbage-collector
// finalizers the object gets (`orphan`, `foregroundDeletion`), and how a graceful deletion
// (pods) sets or shortens deletionTimestamp and deletionGracePeriodSeconds.

import type { KubeObject } from '../apimachinery/types.js';
import { asRecord, cloneJson } from '../apimachinery/types.js';
import type { ResourceDef } from './resources.js';

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** metav1.FinalizerOrphanDependents and metav1.FinalizerDeleteDependents. */
export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

/**
 * Resources that never get GC finalizers: events, whose strategy answers rest.Unsupported, and
 * namespaces, which the twin empties at once instead of running the namespace controller.
 */
const noGarbageCollection = new Set(['events', 'namespaces']);

export interface GcOptions {
  propagationPolicy?: PropagationPolicy | undefined;
  orphanDependents?: boolean | undefined;
}

/** shouldOrphanDependents: options, then existing finalizers; no served kind defaults to orphan. */
function shouldOrphan(finalizers: readonly string[], options: GcOptions): boolean {
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === orphanFinalizer) return true;
    if (f === foregroundFinalizer) return false;
  }
  // apps/v1 strategies answer DeleteDependents and the rest have no default: background.
  return false;
}

/** shouldDeleteDependents: only Foreground (or an existing foregroundDeletion finalizer). */
function shouldForeground(finalizers: readonly string[], options: GcOptions): boolean {
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === foregroundFinalizer) return true;
    if (f === orphanFinalizer) return false;
  }
  return false;
}

/**
 * deletionFinalizersForGarbageCollection: the object's finalizers with `orphan` and
 * `foregroundDeletion` set as the options say, or undefined when they stay as they are.
 */
export function gcFinalizers(
  def: ResourceDef,
  obj: KubeObject,
  options: GcOptions,
): string[] | undefined {
  if (noGarbageCollection.has(def.plural)) return undefined;
  const old = obj.metadata.finalizers ?? [];
  const next = old.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (shouldOrphan(old, options)) next.push(orphanFinalizer);
  if (shouldForeground(old, options)) next.push(foregroundFinalizer);
  const same = next.length === old.length && next.every((f) => old.includes(f));
  return same ? undefined : next;
}

/** RFC 3339 with second precision, as metav1.Time serializes. */
export function timeText(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export type GracefulStep =
  | { kind: 'pending' }
  | { kind: 'immediate' }
  | { kind: 'graceful'; deletionTimestamp: string; gracePeriodSeconds: number };

/**
 * rest.BeforeDelete for a graceful kind (pods) that is already terminating: a DELETE may only
 * shorten the grace period; otherwise the deletion is pending and nothing changes.
 */
export function shortenGrace(obj: KubeObject, requested: number | undefined): GracefulStep {
  const current = obj.metadata.deletionGracePeriodSeconds;
  const since = Date.parse(obj.metadata.deletionTimestamp ?? '');
  if (current === undefined || current === 0 || Number.isNaN(since)) return { kind: 'immediate' };
  if (requested === undefined) return { kind: 'pending' };
  // Negative values count as 1 s on the delete path.
  const period = requested < 0 ? 1 : requested;
  if (period >= current) return { kind: 'pending' };
  const at = since - current * 1000 + period * 1000;
  return { kind: 'graceful', deletionTimestamp: timeText(at), gracePeriodSeconds: period };
}

/** CheckGracefulDelete for a pod: its grace period, or 0 when no kubelet will stop it. */
function startGrace(
  obj: KubeObject,
  requested: number | undefined,
  now: number,
  kubeletStops: (grace: number) => boolean,
): GracefulStep {
  const podGrace = asRecord(obj['spec'])['terminationGracePeriodSeconds'];
  let grace = requested ?? (typeof podGrace === 'number' ? podGrace : 30);
  if (grace < 0) grace = 1;
  const seconds = grace !== 0 && kubeletStops(grace) ? grace : 0;
  return {
    kind: 'graceful',
    deletionTimestamp: timeText(now + seconds * 1000),
    gracePeriodSeconds: seconds,
  };
}

export type DeletionPlan =
  | { kind: 'pending' }
  | { kind: 'remove' }
  | { kind: 'mark'; marked: KubeObject; bumpGeneration: boolean };

/**
 * Store.Delete's decision: a pending graceful deletion changes nothing; an object without
 * finalizers and without grace left goes now; anything else is kept, marked deleting, with its
 * GC finalizers set as the options say (`kubeletStops`: the delete hooks, asked for pods only).
 */
export function planDeletion(
  def: ResourceDef,
  obj: KubeObject,
  options: GcOptions & { gracePeriodSeconds?: number | undefined },
  now: number,
  kubeletStops: (grace: number) => boolean,
): DeletionPlan {
  // rest.BeforeDelete: only pods delete gracefully; a terminating pod may only shorten its grace.
  const marked = cloneJson(obj);
  let graceful = false;
  if (def.plural === 'pods') {
    const step =
      obj.metadata.deletionTimestamp === undefined
        ? startGrace(obj, options.gracePeriodSeconds, now, kubeletStops)
        : shortenGrace(obj, options.gracePeriodSeconds);
    if (step.kind === 'pending') return step;
    if (step.kind === 'graceful') {
      graceful = true;
      marked.metadata.deletionTimestamp = step.deletionTimestamp;
      marked.metadata.deletionGracePeriodSeconds = step.gracePeriodSeconds;
    }
  }
  const finalizers = gcFinalizers(def, obj, options);
  if (finalizers !== undefined) {
    if (finalizers.length > 0) marked.metadata.finalizers = finalizers;
    else delete marked.metadata.finalizers;
  }
  const pendingFinalizers = (marked.metadata.finalizers ?? []).length > 0;
  const graceLeft = graceful && (marked.metadata.deletionGracePeriodSeconds ?? 0) > 0;
  if (!pendingFinalizers && !graceLeft) return { kind: 'remove' };
  if (!graceful) {
    // markAsDeleting: deletionTimestamp now (unless an earlier one stands), grace period 0.
    const existing = Date.parse(obj.metadata.deletionTimestamp ?? '');
    if (Number.isNaN(existing) || existing > now) marked.metadata.deletionTimestamp = timeText(now);
    marked.metadata.deletionGracePeriodSeconds = 0;
  }
  // The first deletion mark bumps a generation, as markAsDeleting and BeforeDelete do.
  return { kind: 'mark', marked, bumpGeneration: obj.metadata.deletionTimestamp === undefined };
}
