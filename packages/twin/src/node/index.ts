// The node model's entry point: every node's host, kube-proxy and dataplane, driven by the
// wiring (DaemonSet controller, exec, logs) with plain calls and explicit times. Deterministic:
// no timers, no randomness; the same calls in the same order give the same answers.

import type { HostFault, HostSpec, ImageSpec } from '../scenario/schema.js';
import type { KubeObject } from '../apimachinery/types.js';
import { buildCatalog, emptyCatalog, type ServiceCatalog } from './dataplane/catalog.js';
import { runCommand } from './commands/commands.js';
import type { CommandResult, NodeChange } from './commands/types.js';
import type { ContainerContext } from './container/context.js';
import { execContainer, withImageNft } from './container/kube-proxy-image.js';
import { emptyDataplane, type Dataplane } from './dataplane/dataplane.js';
import { initialSysctls, resolveHostFacts, type HostFacts, type HostSysctls } from './host/host.js';
import { resolveKubeProxyConfig } from './kube-proxy/config.js';
import {
  exitOnConfigChange,
  startKubeProxy,
  stopKubeProxy,
  syncKubeProxy,
  type KubeProxyRuntime,
} from './kube-proxy/kube-proxy.js';
import { imageVersion, kubeProxyContainer } from './kube-proxy/pod-spec.js';
import { probe, type ProbeResult, type ProbeTarget } from './reachability/reachability.js';
import { parseKubeVersion, type Version } from './versions.js';
import type { ClusterView, NodeState } from './view.js';

export type { CommandResult } from './commands/types.js';
export type { ProbeResult, ProbeTarget } from './reachability/reachability.js';
export type { HostFacts } from './host/host.js';
export type { KubeProxyRuntime, ProxyEvent, ProxyPhase } from './kube-proxy/kube-proxy.js';
export type { Dataplane } from './dataplane/dataplane.js';
export type { ContainerContext } from './container/context.js';
export type { ClusterDataplaneOptions, ExecOptions, PodStartResult } from './types.js';
import type { ClusterDataplaneOptions, ExecOptions, PodStartResult } from './types.js';
export { containerContext } from './container/context.js';

interface NodeRecord extends NodeState {
  node: KubeObject;
  facts: HostFacts;
  sysctls: HostSysctls;
  dataplane: Dataplane;
  proxy: KubeProxyRuntime | undefined;
  faults: readonly HostFault[] | undefined;
  podLogs: Map<string, { current: readonly string[]; previous: readonly string[] }>;
  /** kube-proxy started but has not run its first sync yet: it programs nothing until syncNow. */
  firstSyncPending: boolean;
}

export class ClusterDataplane implements ClusterView {
  private readonly nodes = new Map<string, NodeRecord>();
  private readonly byAddress = new Map<string, string>();
  private readonly hosts: readonly HostSpec[];
  private readonly images: readonly ImageSpec[];
  private readonly clusterVersion: Version;
  private current: ServiceCatalog = emptyCatalog;

  constructor(options: ClusterDataplaneOptions) {
    this.hosts = options.hosts ?? [];
    this.images = options.images ?? [];
    this.clusterVersion = parseKubeVersion(options.kubernetesVersion) ?? {
      major: 1,
      minor: 33,
      patch: 0,
    };
  }

  get catalog(): ServiceCatalog {
    return this.current;
  }

  /** Registers or updates a Node (addresses, labels, conditions); its dataplane is kept. */
  setNode(node: KubeObject): void {
    const name = node.metadata.name ?? '';
    const existing = this.nodes.get(name);
    const facts = resolveHostFacts(node, this.hosts, existing?.faults);
    if (existing) {
      this.unindex(existing);
      Object.assign(existing, { node, facts });
    } else
      this.nodes.set(name, {
        name,
        node,
        facts,
        sysctls: initialSysctls(facts),
        dataplane: emptyDataplane,
        proxy: undefined,
        faults: undefined,
        podLogs: new Map(),
        firstSyncPending: false,
      });
    this.index(this.record(name));
  }

  removeNode(name: string): void {
    const rec = this.nodes.get(name);
    if (rec) this.unindex(rec);
    this.nodes.delete(name);
  }

  private index(rec: NodeRecord): void {
    for (const ip of [...rec.facts.addresses, ...rec.facts.nodeIPs])
      this.byAddress.set(ip, rec.name);
  }

  private unindex(rec: NodeRecord): void {
    for (const ip of [...rec.facts.addresses, ...rec.facts.nodeIPs])
      if (this.byAddress.get(ip) === rec.name) this.byAddress.delete(ip);
  }

  private record(name: string): NodeRecord {
    const rec = this.nodes.get(name);
    if (!rec) throw new Error(`twin node model: unknown node ${name} (call setNode first)`);
    return rec;
  }

  node(name: string): NodeState | undefined {
    return this.nodes.get(name);
  }

  nodeForAddress(ip: string): NodeState | undefined {
    const name = this.byAddress.get(ip);
    return name === undefined ? undefined : this.nodes.get(name);
  }

  /**
   * A kube-proxy container started on the node: runs kube-proxy's startup against its host. With
   * `deferFirstSync` it stops before the first sync (cleanup done, nothing programmed yet) until
   * syncNow: the window in which the node has no Service routing.
   */
  podStarted(
    nodeName: string,
    pod: KubeObject,
    configMaps: readonly KubeObject[],
    now: number,
    options: { deferFirstSync?: boolean } = {},
  ): PodStartResult {
    const rec = this.record(nodeName);
    const podName = pod.metadata.name ?? 'kube-proxy';
    const version = imageVersion(kubeProxyContainer(pod)) ?? this.clusterVersion;
    const outcome = startKubeProxy({
      podName,
      version,
      resolution: withImageNft(resolveKubeProxyConfig(pod, configMaps, version), pod, this.images),
      facts: rec.facts,
      dataplane: rec.dataplane,
      catalog: this.current,
      now,
      deferFirstSync: options.deferFirstSync === true,
    });
    rec.firstSyncPending = options.deferFirstSync === true && outcome.runtime.phase === 'running';
    rec.dataplane = outcome.dataplane;
    rec.proxy = outcome.runtime;
    rec.sysctls = { ...rec.sysctls, ...outcome.sysctls };
    const logs = rec.podLogs.get(podName);
    rec.podLogs.set(podName, { current: outcome.runtime.logs, previous: logs?.current ?? [] });
    const rt = outcome.runtime;
    return {
      running: rt.phase === 'running',
      phase: rt.phase,
      exitCode: rt.exitCode,
      reason: rt.phase === 'failed' ? 'Error' : rt.phase === 'completed' ? 'Completed' : undefined,
      message: rt.error,
      logs: rt.logs,
      events: outcome.events,
    };
  }

  /** The kube-proxy container stopped (pod deleted or evicted): its rules stay in the kernel. */
  podStopped(nodeName: string, podName?: string): void {
    const rec = this.nodes.get(nodeName);
    if (rec?.proxy && (podName === undefined || rec.proxy.podName === podName))
      rec.proxy = stopKubeProxy(rec.proxy);
  }

  /** Services or EndpointSlices changed: every running kube-proxy syncs. */
  resync(
    services: readonly KubeObject[],
    endpointSlices: readonly KubeObject[],
    now: number,
  ): void {
    this.current = buildCatalog(services, endpointSlices);
    for (const rec of this.nodes.values()) this.sync(rec, now);
  }

  /** kube-proxy's first sync, when the wiring's timing says; false if that run is gone. */
  syncNow(nodeName: string, podName: string, now: number): boolean {
    const rec = this.nodes.get(nodeName);
    if (!rec?.firstSyncPending || rec.proxy?.podName !== podName) return false;
    rec.firstSyncPending = false;
    this.sync(rec, now);
    return rec.proxy.phase === 'running';
  }

  private sync(rec: NodeRecord, now: number): void {
    if (rec.proxy?.phase !== 'running' || rec.firstSyncPending) return;
    const r = syncKubeProxy(rec.proxy, rec.dataplane, this.current, rec.facts, now);
    rec.proxy = r.runtime;
    rec.dataplane = r.dataplane;
    this.keepLogs(rec);
  }

  /** Updates the running pod's current log; a pod forgotten meanwhile stays forgotten. */
  private keepLogs(rec: NodeRecord): void {
    if (!rec.proxy) return;
    const entry = rec.podLogs.get(rec.proxy.podName);
    if (!entry) return;
    rec.podLogs.set(rec.proxy.podName, { current: rec.proxy.logs, previous: entry.previous });
  }

  /**
   * The pod is gone from the API: drop its logs. Not called when its container merely stops, since
   * a crash-looping pod's `kubectl logs --previous` reads them.
   */
  forgetPod(nodeName: string, podName: string): void {
    this.nodes.get(nodeName)?.podLogs.delete(podName);
  }

  /**
   * A ConfigMap was written. kube-proxy watches its --config file and exits with "content of the
   * proxy server's configuration file was updated"; returns the nodes whose kube-proxy exited.
   */
  configMapChanged(configMap: KubeObject, now: number, onlyNode?: string): string[] {
    const exited: string[] = [];
    for (const rec of this.nodes.values()) {
      if (onlyNode !== undefined && rec.name !== onlyNode) continue;
      const rt = rec.proxy;
      if (rt?.phase !== 'running' || rt.config?.configMapName !== configMap.metadata.name) continue;
      rec.proxy = exitOnConfigChange(rt, now);
      this.keepLogs(rec);
      exited.push(rec.name);
    }
    return exited;
  }

  /** Replaces the node's host faults (scenario faults until first set). */
  setHostFaults(nodeName: string, faults: readonly HostFault[], now: number): void {
    const rec = this.record(nodeName);
    rec.faults = [...faults];
    rec.facts = resolveHostFacts(rec.node, this.hosts, rec.faults);
    this.sync(rec, now);
  }

  /** The container an exec runs in: its image's nft and tools, capabilities and namespaces. */
  execContainer(pod: KubeObject, container: string, kubeProxyPod: boolean): ContainerContext {
    return execContainer(pod, container, this.images, kubeProxyPod);
  }

  exec(
    nodeName: string,
    argv: readonly string[],
    now: number,
    options: ExecOptions = {},
  ): CommandResult {
    const rec = this.record(nodeName);
    const apply = (change: NodeChange): void => {
      if (change.dataplane) rec.dataplane = change.dataplane;
      if (change.sysctls) rec.sysctls = change.sysctls;
    };
    const container = options.container;
    const hostNetwork = options.hostNetwork ?? container?.podIP === undefined;
    return runCommand({ view: this, nodeName, now, hostNetwork, apply, container }, argv);
  }

  /** Log lines of a kube-proxy pod's current (or previous) container. */
  logs(nodeName: string, podName: string, previous = false): readonly string[] {
    const entry = this.nodes.get(nodeName)?.podLogs.get(podName);
    return (previous ? entry?.previous : entry?.current) ?? [];
  }

  probe(fromNode: string, target: ProbeTarget, options: ExecOptions = {}): ProbeResult {
    return probe(this, fromNode, target, options.hostNetwork ?? true);
  }

  hostFacts(nodeName: string): HostFacts | undefined {
    return this.nodes.get(nodeName)?.facts;
  }

  kubeProxy(nodeName: string): KubeProxyRuntime | undefined {
    return this.nodes.get(nodeName)?.proxy;
  }

  dataplane(nodeName: string): Dataplane | undefined {
    return this.nodes.get(nodeName)?.dataplane;
  }
}
