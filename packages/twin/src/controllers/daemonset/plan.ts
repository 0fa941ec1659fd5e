// The DaemonSet controller's decisions as pure functions over one sync's snapshot: manage()'s
// per-node create/delete (podsShouldBeOnNode) and rollingUpdate()'s maxUnavailable/maxSurge math,
// transcribed from pkg/controller/daemon so the twin rolls pods exactly as a cluster would.

import type { KubeObject } from '../../apimachinery/types.js';
import type { Revision } from './spec.js';
import { isPodUpdated } from './spec.js';
import { byCreation, isPodAvailable, isPodReady, isTerminating, status } from '../kube.js';
import type { DaemonPlacement } from '../scheduler/fit.js';

export interface NodeSlot {
  node: string;
  placement: DaemonPlacement;
  /** This DaemonSet's pods on the node, without terminal pods already being deleted. */
  pods: KubeObject[];
}

export interface Plan {
  createOn: string[];
  deletePods: KubeObject[];
}

export interface PlanContext {
  revision: Revision;
  now: number;
}

function available(pod: KubeObject, ctx: PlanContext): boolean {
  return isPodAvailable(pod, ctx.revision.minReadySeconds, ctx.now);
}

/** podsShouldBeOnNode for one node. */
function manageNode(slot: NodeSlot, surge: boolean, ctx: PlanContext, plan: Plan): void {
  const { shouldRun, shouldContinueRunning } = slot.placement;
  const exists = slot.pods.length > 0;
  if (shouldRun && !exists) {
    plan.createOn.push(slot.node);
    return;
  }
  if (!shouldContinueRunning) {
    // Not eligible any more (labels, affinity, NoExecute taint): every strategy deletes.
    plan.deletePods.push(...slot.pods.filter((p) => !isTerminating(p)));
    return;
  }
  const running: KubeObject[] = [];
  for (const pod of slot.pods) {
    if (isTerminating(pod)) continue;
    const phase = status(pod)['phase'];
    // Failed pods are deleted so that a fresh one replaces them on the next sync.
    if (phase === 'Failed' || phase === 'Succeeded') plan.deletePods.push(pod);
    else running.push(pod);
  }
  running.sort(byCreation);
  if (!surge) {
    plan.deletePods.push(...running.slice(1));
    return;
  }
  // Surge keeps the oldest new pod and, until that one is available, the oldest old pod.
  let oldestNew: KubeObject | undefined;
  let oldestOld: KubeObject | undefined;
  for (const pod of running) {
    if (pod.metadata.labels?.['controller-revision-hash'] === ctx.revision.hash) {
      if (!oldestNew) {
        oldestNew = pod;
        continue;
      }
    } else if (!oldestOld) {
      oldestOld = pod;
      continue;
    }
    plan.deletePods.push(pod);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || available(oldestNew, ctx)))
    plan.deletePods.push(oldestOld);
}

/** manage(): what every strategy does; pods on nodes that no longer exist are deleted too. */
export function planManage(
  slots: readonly NodeSlot[],
  strayPods: readonly KubeObject[],
  surge: boolean,
  ctx: PlanContext,
): Plan {
  const plan: Plan = { createOn: [], deletePods: [] };
  for (const slot of slots) manageNode(slot, surge, ctx, plan);
  plan.deletePods.push(...strayPods.filter((p) => !isTerminating(p)));
  return plan;
}

interface NodePods {
  newPod: KubeObject | undefined;
  oldPod: KubeObject | undefined;
  /** False when the node has more than one pod of a kind: manage() must clean it up first. */
  ok: boolean;
}

export function findUpdatedPodsOnNode(pods: readonly KubeObject[], revision: Revision): NodePods {
  let newPod: KubeObject | undefined;
  let oldPod: KubeObject | undefined;
  for (const pod of pods) {
    if (isTerminating(pod)) continue;
    if (isPodUpdated(pod, revision)) {
      if (newPod) return { newPod: undefined, oldPod: undefined, ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { newPod: undefined, oldPod: undefined, ok: false };
      oldPod = pod;
    }
  }
  return { newPod, oldPod, ok: true };
}

export interface Limits {
  maxSurge: number;
  maxUnavailable: number;
  desired: number;
}

/** rollingUpdate() without surge: delete old pods while fewer than maxUnavailable are down. */
function planUnavailable(slots: readonly NodeSlot[], limits: Limits, ctx: PlanContext): Plan {
  let numUnavailable = 0;
  const allowedReplacements: KubeObject[] = [];
  const candidates: KubeObject[] = [];
  for (const slot of slots) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(slot.pods, ctx.revision);
    if (!ok || (!newPod && !oldPod) || (newPod && oldPod)) {
      // Terminating, missing or duplicated pods: manage() acts, the node counts as unavailable.
      numUnavailable += 1;
    } else if (newPod) {
      if (!available(newPod, ctx)) numUnavailable += 1;
    } else if (oldPod) {
      if (!available(oldPod, ctx)) allowedReplacements.push(oldPod);
      else if (numUnavailable < limits.maxUnavailable) candidates.push(oldPod);
    }
  }
  const remaining = Math.min(
    Math.max(limits.maxUnavailable - numUnavailable, 0),
    candidates.length,
  );
  return { createOn: [], deletePods: [...allowedReplacements, ...candidates.slice(0, remaining)] };
}

/** rollingUpdate() with surge: start new pods next to old ones, delete the old once available. */
function planSurge(slots: readonly NodeSlot[], limits: Limits, ctx: PlanContext): Plan {
  const deletePods: KubeObject[] = [];
  const shouldNotRun: KubeObject[] = [];
  const allowedNew: string[] = [];
  const candidateNew: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const slot of slots) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(slot.pods, ctx.revision);
    if (!ok) {
      numSurge += 1;
      continue;
    }
    const counted = oldPod ?? newPod;
    if (counted && available(counted, ctx)) numAvailable += 1;
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(oldPod, ctx)) {
        if (!slot.placement.shouldRun) deletePods.push(oldPod);
        else allowedNew.push(slot.node);
      } else if (!slot.placement.shouldRun) {
        shouldNotRun.push(oldPod);
      } else if (numSurge < limits.maxSurge) {
        candidateNew.push(slot.node);
      }
    } else if (!available(newPod, ctx)) {
      numSurge += 1;
    } else {
      deletePods.push(oldPod);
    }
  }
  // Pods leaving sunsetted nodes go only once enough new ones are available elsewhere.
  const deletable = Math.min(Math.max(numAvailable - limits.desired, 0), shouldNotRun.length);
  deletePods.push(...shouldNotRun.slice(0, deletable));
  const remaining = Math.min(Math.max(limits.maxSurge - numSurge, 0), candidateNew.length);
  return { createOn: [...allowedNew, ...candidateNew.slice(0, remaining)], deletePods };
}

/** rollingUpdate(): `slots` are the nodes with pods plus the nodes that want one. */
export function planRollingUpdate(
  slots: readonly NodeSlot[],
  limits: Limits,
  ctx: PlanContext,
): Plan {
  return limits.maxSurge === 0
    ? planUnavailable(slots, limits, ctx)
    : planSurge(slots, limits, ctx);
}
