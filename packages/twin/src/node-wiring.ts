// Connects the node model to the rest of the twin: kube-proxy containers started by the
// DaemonSet controller run the model's startup, `kubectl exec` and `logs` reach the node's host,
// and Service/EndpointSlice/ConfigMap/Node changes reach every node's kube-proxy.

import type { ExecProvider } from './server/streams/exec.js';
import type { LogLine, LogsProvider } from './server/streams/logs.js';
import type { KubeletView } from './server/streams/kubelet.js';
import { createScheduler, type Cancel, type Clock } from './clock.js';
import type { Controllers, PodRuntime } from './controllers/index.js';
import { createEventRecorder } from './controllers/events.js';
import { ClusterDataplane } from './node/index.js';
import type { Registry } from './registry/registry.js';
import { resourceFor } from './registry/resources.js';
import type { HostFault, HostSpec, ImageSpec } from './scenario/schema.js';
import type { KubeObject } from './apimachinery/types.js';

/**
 * Service changes arrive in bursts (a scenario load, a deployment); sync once per burst, this many
 * simulated ms after its first change.
 */
const RESYNC_DEBOUNCE_MS = 100;
/** How often a followed kube-proxy log is checked for new lines. */
const LOG_POLL_MS = 500;

interface Container {
  name?: string;
  command?: string[];
  args?: string[];
}

/** kube-proxy pods are recognised by their container, whatever the DaemonSet is called. */
export function isKubeProxyPod(pod: KubeObject): boolean {
  const containers = (pod.spec as { containers?: Container[] } | undefined)?.containers ?? [];
  return containers.some((c) => {
    const argv0 = (c.command ?? c.args ?? [])[0] ?? '';
    return c.name === 'kube-proxy' || argv0 === 'kube-proxy' || argv0.endsWith('/kube-proxy');
  });
}

function nodeNameOf(pod: KubeObject): string | undefined {
  return (pod.spec as { nodeName?: string } | undefined)?.nodeName;
}

const MONTHS = 12;
/** klog's `I1129 14:02:03.123456` header, read back into simulated epoch ms for `--timestamps`. */
function klogTime(line: string, now: number): number {
  const m = /^[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{6})/.exec(line);
  if (!m) return now;
  const year = new Date(now).getUTCFullYear();
  const month = Number(m[1]) - 1;
  if (month < 0 || month >= MONTHS) return now;
  return (
    Date.UTC(year, month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) +
    Number(m[6]) / 1000
  );
}

export interface NodeWiring {
  dataplane: ClusterDataplane;
  runtime: PodRuntime;
  exec: ExecProvider;
  logs: LogsProvider;
  setHostFaults: (node: string, faults: HostFault[]) => boolean;
  getHostFaults: (node: string) => readonly HostFault[] | undefined;
  /** Hands the controllers over once they exist (they need the runtime first). */
  attach: (controllers: Controllers) => void;
  /** What exec and logs ask the nodes' kubelets (up, running containers). */
  kubelet: KubeletView;
  /** kube-proxy's delay from start to first sync, from now on (the twin boots with 0). */
  setTimings: (timings: { kubeProxyFirstSyncMs?: number }) => void;
  stop: () => void;
}

export function wireNodeModel(options: {
  registry: Registry;
  clock: Clock;
  kubernetesVersion: string;
  hosts: readonly HostSpec[];
  images?: readonly ImageSpec[];
}): NodeWiring {
  const { registry, clock } = options;
  const store = registry.store;
  const dataplane = new ClusterDataplane({
    kubernetesVersion: options.kubernetesVersion,
    hosts: [...options.hosts],
    images: options.images ?? [],
  });
  const recordEvent = createEventRecorder(registry, clock);
  const all = (plural: string): KubeObject[] => store.list(resourceFor(plural)).items;
  const faultsByNode = new Map<string, HostFault[]>();
  let controllers: Controllers | undefined;
  // Simulated time, so a manual clock drives the debounce; real timers are unref'd.
  const scheduler = createScheduler(clock);
  let cancelResync: Cancel | undefined;

  for (const node of all('nodes')) dataplane.setNode(node);
  const resyncNow = (): void =>
    dataplane.resync(all('services'), all('endpointslices'), clock.now());
  resyncNow();
  const scheduleResync = (): void => {
    if (cancelResync !== undefined) return;
    cancelResync = scheduler.after(RESYNC_DEBOUNCE_MS, () => {
      cancelResync = undefined;
      resyncNow();
    });
  };

  // A deleted kube-proxy pod's bookkeeping goes with it (a stopped container keeps its logs for
  // `kubectl logs --previous` until then).
  const forgetPod = (pod: KubeObject): void => {
    if (!isKubeProxyPod(pod)) return;
    const podName = pod.metadata.name ?? '';
    const nodeName = nodeNameOf(pod);
    if (nodeName !== undefined) dataplane.forgetPod(nodeName, podName);
  };

  const unsubscribe = store.subscribe((event) => {
    const plural = event.resource.plural;
    if (plural === 'services' || plural === 'endpointslices') scheduleResync();
    else if (plural === 'pods') {
      if (event.type === 'DELETED') forgetPod(event.object);
    } else if (plural === 'nodes') {
      if (event.type === 'DELETED') dataplane.removeNode(event.object.metadata.name ?? '');
      else dataplane.setNode(event.object);
    }
  });

  /** kube-proxy's first sync comes this long after its start (0 while booting: at once). */
  let firstSyncMs = 0;
  const firstSyncs = new Set<Cancel>();
  const scheduleFirstSync = (nodeName: string, podName: string): void => {
    const cancel = scheduler.after(firstSyncMs, () => {
      firstSyncs.delete(cancel);
      dataplane.syncNow(nodeName, podName, clock.now());
    });
    firstSyncs.add(cancel);
  };

  /** kube-proxy's --config watcher saw the rewritten file: it exits, the kubelet restarts it. */
  const configMapsUpdated = (pod: KubeObject, names: readonly string[]): void => {
    const nodeName = nodeNameOf(pod);
    const podName = pod.metadata.name ?? '';
    const namespace = pod.metadata.namespace ?? 'default';
    if (nodeName === undefined || !isKubeProxyPod(pod)) return;
    for (const name of names) {
      const cm = store.get(resourceFor('configmaps'), namespace, name);
      if (!cm || dataplane.kubeProxy(nodeName)?.podName !== podName) continue;
      if (dataplane.configMapChanged(cm, clock.now(), nodeName).length === 0) continue;
      // kube-proxy writes no termination message; the kubelet may fall back to its log.
      const logs = dataplane.logs(nodeName, podName);
      controllers?.containerExited(namespace, podName, { exitCode: 1, reason: 'Error', logs });
      return;
    }
  };

  const runtime: PodRuntime = {
    configMapsUpdated,
    start: (pod) => {
      const nodeName = nodeNameOf(pod);
      if (nodeName === undefined || !isKubeProxyPod(pod)) return { ok: true };
      const namespace = pod.metadata.namespace ?? 'default';
      const configMaps = store.list(resourceFor('configmaps'), { namespace }).items;
      const deferFirstSync = firstSyncMs > 0;
      const now = clock.now();
      const result = dataplane.podStarted(nodeName, pod, configMaps, now, { deferFirstSync });
      if (result.running && deferFirstSync) scheduleFirstSync(nodeName, pod.metadata.name ?? '');
      const node = store.get(resourceFor('nodes'), undefined, nodeName);
      if (node !== undefined) {
        for (const e of result.events) {
          recordEvent(node, e.type, e.reason, e.note, { component: 'kube-proxy', host: nodeName });
        }
      }
      if (result.running || result.phase === 'completed') return { ok: true };
      // kube-proxy writes no termination message (its error is only in its log).
      return {
        ok: false,
        exitCode: result.exitCode ?? 1,
        reason: result.reason ?? 'Error',
        logs: result.logs,
      };
    },
    stop: (pod) => {
      const nodeName = nodeNameOf(pod);
      if (nodeName !== undefined && isKubeProxyPod(pod))
        dataplane.podStopped(nodeName, pod.metadata.name);
      return undefined;
    },
  };

  const exec: ExecProvider = (req) => {
    const nodeName = nodeNameOf(req.pod);
    if (nodeName === undefined) {
      return Promise.resolve({ exitCode: 126, stdout: '', stderr: 'pod is not bound to a node\n' });
    }
    // The process sees its container: the image's tools, its capabilities, its namespaces.
    const container = dataplane.execContainer(req.pod, req.container, isKubeProxyPod(req.pod));
    return Promise.resolve(dataplane.exec(nodeName, req.command, clock.now(), { container }));
  };

  const logs: LogsProvider = (pod) => {
    const nodeName = nodeNameOf(pod);
    const podName = pod.metadata.name ?? '';
    const read = (previous: boolean): LogLine[] =>
      nodeName === undefined
        ? []
        : dataplane
            .logs(nodeName, podName, previous)
            .map((text) => ({ text, time: klogTime(text, clock.now()) }));
    return {
      lines: () => read(false),
      previousLines: () => read(true),
      subscribe: (fn) => {
        let seen = read(false).length;
        const timer = setInterval(() => {
          const lines = read(false);
          for (const line of lines.slice(seen)) fn(line);
          seen = lines.length;
        }, LOG_POLL_MS);
        timer.unref();
        return () => clearInterval(timer);
      },
    };
  };

  return {
    dataplane,
    runtime,
    exec,
    logs,
    setHostFaults: (nodeName, faults) => {
      if (store.get(resourceFor('nodes'), undefined, nodeName) === undefined) return false;
      const before = faultsByNode.get(nodeName) ?? dataplane.hostFacts(nodeName)?.faults ?? [];
      faultsByNode.set(nodeName, [...faults]);
      dataplane.setHostFaults(nodeName, faults, clock.now());
      // Only a change in not-ready touches the Node's Ready condition, and only a running kubelet
      // posts it; a kubelet coming back posts its whole status (controllers.setKubeletDown).
      const down = faults.includes('kubelet-down');
      if (before.includes('kubelet-down') !== down) {
        controllers?.setKubeletDown(nodeName, down, !faults.includes('not-ready'));
      } else if (!down && before.includes('not-ready') !== faults.includes('not-ready')) {
        controllers?.setNodeReady(nodeName, !faults.includes('not-ready'));
      }
      return true;
    },
    getHostFaults: (nodeName) =>
      faultsByNode.get(nodeName) ?? dataplane.hostFacts(nodeName)?.faults,
    attach: (c) => {
      controllers = c;
    },
    kubelet: {
      up: (node) => controllers?.kubeletUp(node) ?? true,
      running: (pod) => controllers?.containerRunning(pod),
    },
    setTimings: (t) => {
      if (t.kubeProxyFirstSyncMs !== undefined) firstSyncMs = t.kubeProxyFirstSyncMs;
    },
    stop: () => {
      unsubscribe();
      for (const cancel of firstSyncs) cancel();
      scheduler.stop();
    },
  };
}
