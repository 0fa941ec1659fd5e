// DaemonSet status as updateDaemonSetStatus computes it: per eligible node, the oldest daemon pod
// decides ready/available/updated; pods on ineligible nodes count as misscheduled.

import type { JsonObject } from '../../apimachinery/types.js';
import type { NodeSlot } from './plan.js';
import type { Revision } from './spec.js';
import { isPodUpdated } from './spec.js';
import { byCreation, isPodAvailable, isPodReady } from '../kube.js';

export interface StatusInput {
  slots: readonly NodeSlot[];
  revision: Revision;
  observedGeneration: number;
  now: number;
  /** Kept from the current status: the controller never resets it. */
  collisionCount?: number | undefined;
}

export function daemonSetStatus(input: StatusInput): JsonObject {
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let availableCount = 0;
  let updated = 0;
  for (const slot of input.slots) {
    const scheduled = slot.pods.length > 0;
    if (!slot.placement.shouldRun) {
      if (scheduled) misscheduled += 1;
      continue;
    }
    desired += 1;
    if (!scheduled) continue;
    current += 1;
    const oldest = [...slot.pods].sort(byCreation)[0];
    if (!oldest) continue;
    if (isPodReady(oldest)) {
      ready += 1;
      if (isPodAvailable(oldest, input.revision.minReadySeconds, input.now)) availableCount += 1;
    }
    if (isPodUpdated(oldest, input.revision)) updated += 1;
  }
  const out: JsonObject = {
    currentNumberScheduled: current,
    desiredNumberScheduled: desired,
    numberMisscheduled: misscheduled,
    numberReady: ready,
    observedGeneration: input.observedGeneration,
  };
  // The API omits these when zero (omitempty); the four above are always present.
  if (updated > 0) out['updatedNumberScheduled'] = updated;
  if (availableCount > 0) out['numberAvailable'] = availableCount;
  if (desired - availableCount > 0) out['numberUnavailable'] = desired - availableCount;
  if (input.collisionCount !== undefined) out['collisionCount'] = input.collisionCount;
  return out;
}
