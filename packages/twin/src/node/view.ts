// The read view of the cluster that commands and reachability work from: every node's Node
// object, host facts, sysctls, dataplane and kube-proxy, plus the current Services.

import { asArray, asRecord, type KubeObject } from '../apimachinery/types.js';
import type { ServiceCatalog } from './dataplane/catalog.js';
import type { Dataplane } from './dataplane/dataplane.js';
import type { HostFacts, HostSysctls } from './host/host.js';
import type { KubeProxyRuntime } from './kube-proxy/kube-proxy.js';

export interface NodeState {
  readonly name: string;
  readonly node: KubeObject;
  readonly facts: HostFacts;
  readonly sysctls: HostSysctls;
  readonly dataplane: Dataplane;
  /** The kube-proxy of the pod currently (or last) on the node. */
  readonly proxy: KubeProxyRuntime | undefined;
}

export interface ClusterView {
  node(name: string): NodeState | undefined;
  /** The node that owns a (non-loopback) host address. */
  nodeForAddress(ip: string): NodeState | undefined;
  /** Services and endpoints as they are now (programs may hold older copies). */
  readonly catalog: ServiceCatalog;
}

/** NotReady: the `not-ready` fault, or a Ready condition that is not True. */
export function nodeDown(state: NodeState): boolean {
  if (state.facts.faults.includes('not-ready')) return true;
  const ready = asArray(asRecord(state.node['status'])['conditions'])
    .map(asRecord)
    .find((c) => c['type'] === 'Ready');
  return ready !== undefined && ready['status'] !== 'True';
}

export function proxyRunning(state: NodeState): KubeProxyRuntime | undefined {
  return state.proxy?.phase === 'running' ? state.proxy : undefined;
}
