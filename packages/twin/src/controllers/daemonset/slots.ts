// One sync's snapshot of a DaemonSet's world: every node with its placement verdict and the
// DaemonSet's pods on it (getNodesToDaemonPods), pods left on vanished nodes, and live hashes.

import type { ObjectStore } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord } from '../../apimachinery/types.js';
import type { NodeSlot } from './plan.js';
import {
  controllerOf,
  isPodTerminal,
  isTerminating,
  nodeName,
  nodesDef,
  podsDef,
  revisionHashLabel,
  spec,
} from '../kube.js';
import { daemonPlacement, daemonPodSpec } from '../scheduler/fit.js';

export interface Snapshot {
  slots: NodeSlot[];
  /** Pods whose node no longer exists. */
  strayPods: KubeObject[];
  /** Revision hashes some pod still carries: their ControllerRevisions are kept. */
  liveHashes: Set<string>;
}

export function ownedPods(store: ObjectStore, ds: KubeObject): KubeObject[] {
  const uid = ds.metadata.uid;
  return store.list(podsDef, {
    namespace: ds.metadata.namespace,
    match: (pod) => controllerOf(pod)?.['uid'] === uid,
  }).items;
}

export function collectSlots(store: ObjectStore, ds: KubeObject): Snapshot {
  const podSpec = daemonPodSpec(asRecord(asRecord(spec(ds)['template'])['spec']));
  const byNode = new Map<string, KubeObject[]>();
  const liveHashes = new Set<string>();
  for (const pod of ownedPods(store, ds)) {
    const hash = pod.metadata.labels?.[revisionHashLabel];
    if (hash !== undefined) liveHashes.add(hash);
    // A terminal pod already being deleted is the kubelet's or pod GC's business, not ours.
    if (isPodTerminal(pod) && isTerminating(pod)) continue;
    const node = nodeName(pod);
    if (node === '') continue;
    const list = byNode.get(node) ?? [];
    list.push(pod);
    byNode.set(node, list);
  }
  const slots: NodeSlot[] = [];
  for (const node of store.list(nodesDef).items) {
    const name = node.metadata.name ?? '';
    slots.push({
      node: name,
      placement: daemonPlacement(podSpec, node),
      pods: byNode.get(name) ?? [],
    });
    byNode.delete(name);
  }
  return { slots, strayPods: [...byNode.values()].flat(), liveHashes };
}
