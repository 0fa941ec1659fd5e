// The node as a process in a container sees it. Its binaries come from its image (the nft
// version; which commands exist) unless it entered the host's root. Without hostNetwork it lives
// in the pod's own network namespace: lo and eth0 with the pod IP, no kube-ipvs0, no nftables
// tables, no IPVS virtual servers (the ip_vs module itself is the kernel's, so it stays loaded),
// zero conntrack entries. Service traffic from such a pod still crosses the host's hooks, so
// reachability keeps reading the host's dataplane; only what the process lists changes.

import { emptyDataplane } from '../dataplane/dataplane.js';
import type { NodeState } from '../view.js';
import type { ContainerContext } from './context.js';

/** `nft: none` on a host: Bottlerocket and minimal images ship no nft. */
export const noNft = 'none';

/** The nft the process runs, or undefined when there is none. */
export function processNft(
  state: NodeState,
  container: ContainerContext | undefined,
): string | undefined {
  if (container === undefined || container.inHostRoot)
    return state.facts.nft === noNft ? undefined : state.facts.nft;
  return container.imageNft;
}

/** Whether the process finds the command: the image's tools, or the host's in its root. */
export function hasCommand(
  state: NodeState,
  container: ContainerContext | undefined,
  name: string,
): boolean {
  if (name === 'nft') return processNft(state, container) !== undefined;
  if (container === undefined || container.inHostRoot || container.tools === undefined) return true;
  return container.tools.has(name);
}

/** Root on the host, or a container holding the capability. */
export function hasCapability(container: ContainerContext | undefined, cap: string): boolean {
  return container === undefined || container.capabilities.has(cap);
}

export function inPodNetwork(container: ContainerContext | undefined): boolean {
  return container?.podIP !== undefined;
}

/** The node state the process's commands read. */
export function processState(state: NodeState, container: ContainerContext | undefined): NodeState {
  if (container === undefined) return state;
  const nft = processNft(state, container) ?? noNft;
  if (container.podIP === undefined) return { ...state, facts: { ...state.facts, nft } };
  const facts = state.facts;
  return {
    ...state,
    facts: {
      ...facts,
      nft,
      addresses: container.podIP === '' ? [] : [container.podIP],
      conntrack: {
        ...facts.conntrack,
        count: 0,
        invalidPerCpu: facts.conntrack.invalidPerCpu.map(() => 0),
      },
    },
    dataplane: { ...emptyDataplane, ipvsModuleLoaded: state.dataplane.ipvsModuleLoaded },
  };
}
