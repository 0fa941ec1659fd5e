// One simulated kubelet for all nodes: per pod it remembers the container's state, drives
// ContainerCreating → start (runtime hook) → Ready, and restarts crashed containers with the
// kubelet's CrashLoopBackOff delays. Every status change is written through the status subresource.
// A node's kubelet can be down (the kubelet-down host fault): it then does nothing at all (no
// status, no start, no stop, no restart) and catches up, in order, once it is back.

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
import { readinessDelayMs } from './readiness.js';
import type { ErrorSink } from '../work-queue.js';
import { terminationMessage } from './termination-message.js';
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
  /** When the pod worker first synced the pod: its periodic syncs count from here. */
  admittedMs: number;
  /** ConfigMaps changed since the last sync, delivered to the runtime at the next one. */
  pendingConfigMaps: Set<string>;
  volumeTimer: Cancel | undefined;
}

export function containerNames(pod: KubeObject): string[] {
  return asArray(spec(pod)['containers'])
    .filter(isJsonObject)
    .map((c) => asString(c['name']));
}

export class Kubelet {
  readonly tracks = new Map<string, Track>();
  /** Nodes whose kubelet is down, with what it will do once it is back. */
  private readonly down = new Map<string, (() => void)[]>();

  constructor(private readonly deps: KubeletDeps) {}

  isUp(node: string): boolean {
    return !this.down.has(node);
  }

  /** Runs `fn` now, or once the node's kubelet is back if it is down. */
  act(node: string, context: string, fn: () => void): void {
    const held = this.down.get(node);
    if (held) held.push(() => this.guard(context, fn));
    else this.guard(context, fn);
  }

  /** Stops or restarts a node's kubelet; back up, it reports every pod and does what it missed. */
  setUp(node: string, up: boolean): void {
    if (!up) {
      if (!this.down.has(node)) this.down.set(node, []);
      return;
    }
    const held = this.down.get(node);
    if (!held) return;
    this.down.delete(node);
    for (const t of this.tracks.values()) if (t.node === node) this.write(t);
    for (const fn of held) fn();
  }

  /** The kubelet's findContainer: the container runs (a stopped or crashed one does not). */
  running(uid: string): boolean | undefined {
    const t = this.tracks.get(uid);
    if (!t) return undefined;
    return t.started && t.state.kind === 'running';
  }

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
      this.act(t.node, `pod ${t.namespace}/${t.name}`, fn);
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
    if (!pod || this.down.has(t.node)) return;
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
      admittedMs: clock.now(),
      pendingConfigMaps: new Set(),
      volumeTimer: undefined,
    };
    this.tracks.set(uid, t);
    const message = `Successfully assigned ${t.namespace}/${t.name} to ${t.node}`;
    recordEvent(pod, 'Normal', 'Scheduled', message, { component: 'default-scheduler' });
    this.write(t);
    this.schedule(t, timings.startMs, () => this.attemptStart(t));
    const deadline = spec(pod)['activeDeadlineSeconds'];
    if (typeof deadline === 'number' && deadline > 0)
      t.deadline = this.deps.scheduler.after(deadline * 1000, () =>
        this.act(t.node, `pod ${t.namespace}/${t.name}`, () => this.deadlineExceeded(t)),
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
      const message = terminationMessage(pod, result.exitCode, result.message, result.logs);
      if (message !== undefined) exit.message = message;
      this.crash(t, pod, exit);
      return;
    }
    // Without a readiness probe a started container is ready in the same status update.
    const readyMs = timings.probeDelays ? readinessDelayMs(pod) : 0;
    t.state = { kind: 'running', startedAt, ready: readyMs === 0 };
    this.write(t);
    for (const name of containerNames(pod))
      recordEvent(pod, 'Normal', 'Started', `Started container ${name}`, this.source(t.node));
    if (readyMs === 0) return;
    this.schedule(t, readyMs, () => {
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
