// Pod status as the kubelet reports it at each step of a container's life (ContainerCreating,
// running, ready, crashed, CrashLoopBackOff), with conditions in the kubelet's order and
// lastTransitionTime kept while a condition's status holds.

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';
import { conditions as conditionsOf, spec, status as statusOf } from '../kube.js';
import { sha256Hex } from '../hash.js';

/** What the kubelet knows about the pod's containers (they share one fate in the twin). */
export type ContainerState =
  | { kind: 'creating' }
  | { kind: 'running'; startedAt: string; ready: boolean }
  | { kind: 'terminated'; exit: Exit }
  | { kind: 'backoff'; exit: Exit; backoffMs: number };

export interface Exit {
  exitCode: number;
  reason: string;
  message?: string | undefined;
  startedAt: string;
  finishedAt: string;
}

export interface PodView {
  state: ContainerState;
  /** The kubelet failed the whole pod (activeDeadlineSeconds): phase Failed with this reason. */
  failure?: { reason: string; message: string } | undefined;
  restartCount: number;
  /** The previous run's exit, shown as lastState.terminated. */
  lastExit: Exit | undefined;
  /** Identifies the current (or last) container instance. */
  attempt: number;
  nodeReady: boolean;
  hostIP: string;
  podIP: string;
  startTime: string;
  now: string;
}

function containers(pod: KubeObject): JsonObject[] {
  return asArray(spec(pod)['containers']).filter(isJsonObject);
}

export function containerId(pod: KubeObject, container: string, attempt: number): string {
  return `containerd://${sha256Hex(`${pod.metadata.uid ?? ''}/${container}/${attempt}`)}`;
}

/** What `crictl inspecti` would report: the repository with the image's digest. */
export function imageId(image: string): string {
  const at = image.indexOf('@');
  if (at >= 0) return image;
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  const repo = colon > slash ? image.slice(0, colon) : image;
  return `${repo}@sha256:${sha256Hex(image)}`;
}

function terminated(exit: Exit, id: string): JsonObject {
  const out: JsonObject = { containerID: id, exitCode: exit.exitCode, reason: exit.reason };
  if (exit.message !== undefined) out['message'] = exit.message;
  out['startedAt'] = exit.startedAt;
  out['finishedAt'] = exit.finishedAt;
  return out;
}

function containerStatus(pod: KubeObject, c: JsonObject, view: PodView): JsonObject {
  const name = asString(c['name']);
  const image = asString(c['image']);
  const id = containerId(pod, name, view.attempt);
  const { state } = view;
  const out: JsonObject = {};
  if (state.kind !== 'creating') out['containerID'] = id;
  out['image'] = image;
  out['imageID'] = state.kind === 'creating' ? '' : imageId(image);
  out['lastState'] = view.lastExit
    ? { terminated: terminated(view.lastExit, containerId(pod, name, view.attempt - 1)) }
    : {};
  out['name'] = name;
  out['ready'] = state.kind === 'running' && state.ready;
  out['restartCount'] = view.restartCount;
  out['started'] = state.kind === 'running';
  const podRef = `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
  switch (state.kind) {
    case 'creating':
      out['state'] = { waiting: { reason: 'ContainerCreating' } };
      break;
    case 'running':
      out['state'] = { running: { startedAt: state.startedAt } };
      break;
    case 'terminated':
      out['state'] = { terminated: terminated(state.exit, id) };
      break;
    case 'backoff': {
      const message = `back-off ${Math.round(state.backoffMs / 1000)}s restarting failed container=${name} pod=${podRef}`;
      out['state'] = { waiting: { message, reason: 'CrashLoopBackOff' } };
      out['lastState'] = { terminated: terminated(state.exit, id) };
      break;
    }
  }
  return out;
}

/** Keeps lastTransitionTime from `previous` when the condition's status did not change. */
function stamped(previous: readonly JsonObject[], next: JsonObject, now: string): JsonObject {
  const old = previous.find((c) => c['type'] === next['type']);
  const since = old && old['status'] === next['status'] ? old['lastTransitionTime'] : now;
  return { lastProbeTime: null, lastTransitionTime: since ?? now, ...next };
}

/** The five pod conditions, in the order the kubelet writes them. */
export function podConditions(pod: KubeObject, view: PodView): JsonObject[] {
  const previous = conditionsOf(pod);
  const names = containers(pod).map((c) => asString(c['name']));
  const containersReady = view.state.kind === 'running' && view.state.ready;
  const started = view.state.kind !== 'creating';
  const notReady = {
    reason: 'ContainersNotReady',
    message: `containers with unready status: [${names.join(' ')}]`,
  };
  const list: JsonObject[] = [
    { type: 'PodReadyToStartContainers', status: started ? 'True' : 'False' },
    { type: 'Initialized', status: 'True' },
    containersReady
      ? { type: 'Ready', status: view.nodeReady ? 'True' : 'False' }
      : { type: 'Ready', status: 'False', ...notReady },
    containersReady
      ? { type: 'ContainersReady', status: 'True' }
      : { type: 'ContainersReady', status: 'False', ...notReady },
    { type: 'PodScheduled', status: 'True' },
  ];
  return list.map((c) => stamped(previous, c, view.now));
}

/** v1qos.GetPodQOS, reduced to cpu and memory requests and limits. */
export function qosClass(pod: KubeObject): string {
  let any = false;
  let guaranteed = true;
  for (const c of containers(pod)) {
    const resources = asRecord(c['resources']);
    const requests = asRecord(resources['requests']);
    const limits = asRecord(resources['limits']);
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      const request = requests[r] ?? limits[r];
      if (limits[r] === undefined || request !== limits[r]) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** Whether the kubelet restarts a container that exited this way (the pod's restartPolicy). */
export function restarts(pod: KubeObject, exitCode: number): boolean {
  const policy = asString(spec(pod)['restartPolicy']) || 'Always';
  return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
}

function podPhase(pod: KubeObject, state: ContainerState): string {
  if (state.kind === 'creating') return 'Pending';
  if (state.kind === 'terminated' && !restarts(pod, state.exit.exitCode))
    return state.exit.exitCode === 0 ? 'Succeeded' : 'Failed';
  return 'Running';
}

export function podStatus(pod: KubeObject, view: PodView): JsonObject {
  const out: JsonObject = {
    conditions: podConditions(pod, view),
    containerStatuses: containers(pod).map((c) => containerStatus(pod, c, view)),
    hostIP: view.hostIP,
    hostIPs: [{ ip: view.hostIP }],
    phase: view.failure ? 'Failed' : podPhase(pod, view.state),
  };
  if (view.state.kind !== 'creating') {
    out['podIP'] = view.podIP;
    out['podIPs'] = [{ ip: view.podIP }];
  }
  if (view.failure) {
    out['message'] = view.failure.message;
    out['reason'] = view.failure.reason;
  }
  out['qosClass'] = asString(statusOf(pod)['qosClass']) || qosClass(pod);
  out['startTime'] = view.startTime;
  return out;
}
