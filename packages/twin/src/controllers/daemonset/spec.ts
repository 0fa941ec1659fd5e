// How the DaemonSet controller reads a DaemonSet: its update strategy with maxUnavailable/maxSurge
// scaled as intstr.GetScaledValueFromIntOrPercent does, its template generation, and which of its
// pods are up to date (util.IsPodUpdated).

import type { KubeObject } from '../../apimachinery/types.js';
import { asNumber, asRecord } from '../../apimachinery/types.js';
import { revisionHashLabel, spec, templateGenerationAnnotation } from '../kube.js';
import { templateGenerationLabel } from '../kube.js';

export type IntOrPercent = number | string;

export type UpdateStrategy =
  | { type: 'OnDelete' }
  | { type: 'RollingUpdate'; maxUnavailable: IntOrPercent; maxSurge: IntOrPercent };

/** What one sync needs to know about the DaemonSet's current revision. */
export interface Revision {
  hash: string;
  /** The template generation, from the deprecated annotation; undefined if absent. */
  generation: string | undefined;
  minReadySeconds: number;
}

export function updateStrategy(ds: KubeObject): UpdateStrategy {
  const strategy = asRecord(spec(ds)['updateStrategy']);
  if (strategy['type'] === 'OnDelete') return { type: 'OnDelete' };
  const rolling = asRecord(strategy['rollingUpdate']);
  const value = (v: unknown, fallback: IntOrPercent): IntOrPercent =>
    typeof v === 'number' || typeof v === 'string' ? v : fallback;
  return {
    type: 'RollingUpdate',
    maxUnavailable: value(rolling['maxUnavailable'], 1),
    maxSurge: value(rolling['maxSurge'], 0),
  };
}

/** intstr.GetScaledValueFromIntOrPercent with roundUp, as the DaemonSet controller calls it. */
export function scaledValue(value: IntOrPercent, total: number): number {
  if (typeof value === 'number') return Math.max(0, Math.trunc(value));
  const match = /^(\d+)%$/.exec(value);
  if (match) return Math.ceil((Number(match[1]) * total) / 100);
  return /^\d+$/.test(value) ? Number(value) : 0;
}

/** updatedDesiredNodeCounts: both zero would stall a rollout, so unavailability falls back to 1. */
export function rollingLimits(
  strategy: UpdateStrategy,
  desired: number,
): { maxSurge: number; maxUnavailable: number } {
  if (strategy.type !== 'RollingUpdate') return { maxSurge: 0, maxUnavailable: 0 };
  const maxSurge = scaledValue(strategy.maxSurge, desired);
  let maxUnavailable = scaledValue(strategy.maxUnavailable, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

export function templateGeneration(ds: KubeObject): string | undefined {
  const value = ds.metadata.annotations?.[templateGenerationAnnotation];
  return value === undefined || value === '' ? undefined : value;
}

export function minReadySeconds(ds: KubeObject): number {
  return asNumber(spec(ds)['minReadySeconds']);
}

/** util.IsPodUpdated: the revision hash matches, or (legacy) the template generation does. */
export function isPodUpdated(pod: KubeObject, revision: Revision): boolean {
  const labels = pod.metadata.labels ?? {};
  const generationMatches =
    revision.generation !== undefined && labels[templateGenerationLabel] === revision.generation;
  const hashMatches = revision.hash !== '' && labels[revisionHashLabel] === revision.hash;
  return hashMatches || generationMatches;
}
