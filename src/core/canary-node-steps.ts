/**
 * One node's way to nftables and back, as label changes. The node passes through `switching`,
 * which the original's NotIn excludes and the canary does not select, so the old kube-proxy is
 * gone before the new one is created: never two kube-proxies on one node, in either direction.
 */
import type { ClusterAction } from './actions.js';
import type { KubeNode } from './kube.js';
import { MIGRATION_VALUES } from './node-affinity.js';

export type NodeMode = 'original' | 'switching' | 'nftables';

export interface NodeSteps {
  node: string;
  /** Where the node is now, from its migration label. */
  mode: NodeMode;
  /** From now to nftables; empty when the node is there already. */
  cutover: ClusterAction[];
  /** From nftables back to the original: nftables → switching → the label it had before. */
  rollback: ClusterAction[];
}

export function nodeSteps(node: KubeNode, label: string): NodeSteps {
  const name = node.metadata.name;
  const value = node.metadata.labels?.[label] ?? null;
  const { switching, nftables } = MIGRATION_VALUES;
  const mode: NodeMode =
    value === nftables ? 'nftables' : value === switching ? 'switching' : 'original';
  const toSwitching: ClusterAction = {
    kind: 'label-node',
    node: name,
    key: label,
    value: switching,
    previous: value,
  };
  const toNftables: ClusterAction = {
    kind: 'label-node',
    node: name,
    key: label,
    value: nftables,
    previous: switching,
  };
  const cutover =
    mode === 'original' ? [toSwitching, toNftables] : mode === 'switching' ? [toNftables] : [];
  // A value of its own before the cutover (not one of ours) is put back; otherwise the label goes.
  const before = mode === 'original' ? value : null;
  const back: ClusterAction =
    before === null
      ? { kind: 'unlabel-node', node: name, key: label, previous: switching }
      : { kind: 'label-node', node: name, key: label, value: before, previous: switching };
  const rollback: ClusterAction[] = [
    { kind: 'label-node', node: name, key: label, value: switching, previous: nftables },
    back,
  ];
  return { node: name, mode, cutover, rollback };
}
