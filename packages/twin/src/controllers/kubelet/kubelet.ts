// One simulated kubelet for all nodes: per pod it remembers the container's state, drives
// ContainerCreating → start (runtime hook) → Ready, and restarts crashed containers with the
// kubelet's CrashLoopBackOff delays. Every status change is written through the status subresource.

import type { Cancel, Clock, Scheduler } from '../../clock.js';
import type { Registry } from '../../registry/registry.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asString, isJsonObject } from '../../apimachinery/types.js';
import type { EventSource, RecordEvent } from '../events.js';
import { isNodeReady, nodeName, nodesDef, podsDef, spec } from '../kube.js';
import { hostAddress, podAddress } from './pod-network.js';
import type { ContainerState, Exit } from './pod-status.js';
import { podStatus, restarts } from './pod-status.js';
import type { PodRuntime, PodTimings, StartResult } from './runtime.js';
import { backoffResetMs, crashBackoffMs, firstRestartMs } from './runtime.js';
import type { ErrorSink } from '../work-queue.js';
import { kubeletManager } from '../managers.js';

export interface KubeletDeps {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  runtime: PodRuntime;
  timings: PodTimings;
  recordEvent: RecordEvent;
  onError: ErrorSink;
}

/** What the kubelet remembers about one pod it runs. */
export interface Track {
  uid: string;
  namespace: string;
  name: string;
  node: string;
  state: ContainerState;
  restartCount: number;
  attempt: number;
  lastExit: Exit | undefined;
  /** Consecutive failures, for the backoff; reset after a long enough run. */
  failures: number;
  /** start() was called and stop() not yet: the runtime considers the containers up. */
  started: boolean;
  runSinceMs: number;
  terminating: boolean;
  startTime: string;
  hostIP: string;
  podIP: string;
  timer: Cancel | undefined;
  /** The activeDeadlineSeconds timer, independent of the lifecycle timer. */
  deadline: Cancel | undefined;
  failure: { reason: string; message: string } | undefined;
}

export function containerNames(pod: KubeObject): string[] {
  return asArray(spec(pod)['containers'])
    .filter(isJsonObject)
    .map((c) => asString(c['name']));
}

export class Kubelet {
  readonly tracks = new Map<string, Track>();

  constructor(private readonly deps: KubeletDeps) {}

  source(node: string): EventSource {
    return { component: 'kubelet', host: node };
  }

  /** The stored pod, if it is still the one the track is about. */
  current(t: Track): KubeObject | undefined {
    const pod = this.deps.registry.store.get(podsDef, t.namespace, t.name);
    return pod && pod.metadata.uid === t.uid ? pod : undefined;
  }

  /** Replaces the track's pending timer; errors go to the sink instead of crashing the twin. */
  schedule(t: Track, ms: number, fn: () => void): void {
    t.timer?.();
    t.timer = this.deps.scheduler.after(ms, () => {
      t.timer = undefined;
      this.guard(`pod ${t.namespace}/${t.name}`, fn);
    });
  }

  guard(context: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.deps.onError(error, context);
    }
  }

  write(t: Track): void {
    const pod = this.current(t);
    if (!pod) return;
    const { registry, clock } = this.deps;
    const node = registry.store.get(nodesDef, undefined, t.node);
    const next = podStatus(pod, {
      state: t.state,
      restartCount: t.restartCount,
      lastExit: t.lastExit,
      attempt: t.attempt,
      failure: t.failure,
      nodeReady: node ? isNodeReady(node) : false,
      hostIP: t.hostIP,
      podIP: t.podIP,
      startTime: t.startTime,
      now: clock.timestamp(),
    });
    registry.update(podsDef, { ...pod, status: next }, undefined, {
      subresource: 'status',
      manager: kubeletManager,
    });
  }

  /** The pod landed on its node: report ContainerCreating, start the containers later. */
  admit(pod: KubeObject): void {
    const { registry, clock, timings, recordEvent } = this.deps;
    const uid = pod.metadata.uid ?? '';
    const node = registry.store.get(nodesDef, undefined, nodeName(pod));
    if (this.tracks.has(uid) || !node || pod.metadata.deletionTimestamp !== undefined) return;
    const hostIP = hostAddress(node);
    const t: Track = {
      uid,
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name ?? '',
      node: node.metadata.name ?? '',
      state: { kind: 'creating' },
      restartCount: 0,
      attempt: 1,
      lastExit: undefined,
      failures: 0,
      started: false,
      runSinceMs: 0,
      terminating: false,
      startTime: clock.timestamp(),
      hostIP,
      podIP: spec(pod)['hostNetwork'] === true ? hostIP : podAddress(node, uid),
      timer: undefined,
      deadline: undefined,
      failure: undefined,
    };
    this.tracks.set(uid, t);
    const message = `Successfully assigned ${t.namespace}/${t.name} to ${t.node}`;
    recordEvent(pod, 'Normal', 'Scheduled', message, { component: 'default-scheduler' });
    this.write(t);
    this.schedule(t, timings.startMs, () => this.attemptStart(t));
    const deadline = spec(pod)['activeDeadlineSeconds'];
    if (typeof deadline === 'number' && deadline > 0)
      t.deadline = this.deps.scheduler.after(deadline * 1000, () =>
        this.guard(`pod ${t.namespace}/${t.name}`, () => this.deadlineExceeded(t)),
      );
  }

  /** activeDeadlineSeconds ran out: the kubelet kills the containers and fails the pod. */
  private deadlineExceeded(t: Track): void {
    t.deadline = undefined;
    const pod = this.current(t);
    if (!pod || t.terminating || t.failure) return;
    t.timer?.();
    const now = this.deps.clock.timestamp();
    const startedAt = t.state.kind === 'running' ? t.state.startedAt : now;
    this.callStop(t, pod);
    const message = 'Pod was active on the node longer than the specified deadline';
    t.failure = { reason: 'DeadlineExceeded', message };
    t.state = {
      kind: 'terminated',
      exit: { exitCode: 137, reason: 'Error', startedAt, finishedAt: now },
    };
    this.write(t);
    this.deps.recordEvent(pod, 'Warning', 'DeadlineExceeded', message, this.source(t.node));
  }

  private callStart(pod: KubeObject): StartResult {
    try {
      return this.deps.runtime.start(pod);
    } catch (error) {
      this.deps.onError(error, `runtime start ${pod.metadata.name ?? ''}`);
      return { ok: false, exitCode: 128, reason: 'StartError', message: String(error) };
    }
  }

  /** Tells the runtime the containers stopped; returns how long it says stopping takes. */
  callStop(t: Track, pod: KubeObject): number | undefined {
    if (!t.started) return undefined;
    t.started = false;
    try {
      const ms = this.deps.runtime.stop(pod);
      return typeof ms === 'number' && ms >= 0 ? ms : undefined;
    } catch (error) {
      this.deps.onError(error, `runtime stop ${pod.metadata.name ?? ''}`);
      return undefined;
    }
  }

  attemptStart(t: Track): void {
    const pod = this.current(t);
    if (!pod || t.terminating || pod.metadata.deletionTimestamp !== undefined) return;
    const { clock, timings, recordEvent } = this.deps;
    const startedAt = clock.timestamp();
    t.started = true;
    t.runSinceMs = clock.now();
    const result = this.callStart(pod);
    if (!result.ok) {
      this.callStop(t, pod);
      const exit: Exit = {
        exitCode: result.exitCode,
        reason: result.reason,
        startedAt,
        finishedAt: startedAt,
      };
      if (result.message !== undefined) exit.message = result.message;
      this.crash(t, pod, exit);
      return;
    }
    t.state = { kind: 'running', startedAt, ready: false };
    this.write(t);
    for (const name of containerNames(pod))
      recordEvent(pod, 'Normal', 'Started', `Started container ${name}`, this.source(t.node));
    this.schedule(t, timings.readyMs, () => {
      if (t.state.kind !== 'running') return;
      t.state = { ...t.state, ready: true };
      this.write(t);
    });
  }

  /** The containers exited: show the exit, then restart after the backoff (per restartPolicy). */
  crash(t: Track, pod: KubeObject, exit: Exit): void {
    const { clock, recordEvent } = this.deps;
    if (!restarts(pod, exit.exitCode)) {
      t.state = { kind: 'terminated', exit };
      this.write(t);
      return;
    }
    if (clock.now() - t.runSinceMs >= backoffResetMs) t.failures = 0;
    t.failures += 1;
    const backoffMs = crashBackoffMs(t.failures);
    t.state = backoffMs === 0 ? { kind: 'terminated', exit } : { kind: 'backoff', exit, backoffMs };
    this.write(t);
    if (backoffMs > 0) {
      const podRef = `${t.name}_${t.namespace}(${t.uid})`;
      const message = `Back-off restarting failed container ${containerNames(pod).join(',')} in pod ${podRef}`;
      recordEvent(pod, 'Warning', 'BackOff', message, this.source(t.node));
    }
    this.schedule(t, backoffMs === 0 ? firstRestartMs : backoffMs, () => {
      t.restartCount += 1;
      t.lastExit = exit;
      t.attempt += 1;
      this.attemptStart(t);
    });
  }
}
