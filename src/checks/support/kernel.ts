/** Which kernel a node runs, read one way for every check that compares it with a floor. */
import type { KubeNode } from '../../core/kube.js';
import {
  compareVersions,
  majorMinor,
  parseVersion,
  type Version,
} from '../../core/parse/version.js';
import type { CheckContext } from '../types.js';
import { probeProblem } from './probe.js';

/** nftables mode's kernel floor (k/k pkg/util/kernel/constants.go). */
export const NFTABLES_MIN_KERNEL = { major: 5, minor: 13, patch: 0 } as const;

/** Kernels before this can reset long-lived connections without conntrack.tcpBeLiberal (facts §9). */
export { TCP_LIBERAL_KERNEL } from '../../core/nftables-config.js';

export const KERNEL_COLUMNS_COMMAND =
  'kubectl get nodes -o custom-columns=NAME:.metadata.name,KERNEL:.status.nodeInfo.kernelVersion | sort -k2';

export interface NodeKernel {
  node: string;
  /** `uname -r` from the node probe. */
  running: string | undefined;
  /** `status.nodeInfo.kernelVersion`: what kubelet saw when it last started. */
  reported: string | undefined;
  /** The kernel that decides: the running one when read, else the reported one. */
  effective: string | undefined;
  source: 'uname -r' | 'status.nodeInfo.kernelVersion' | undefined;
  version: Version | undefined;
  /** Whether this node was probed at all. */
  probed: boolean;
  /** Why `uname -r` is missing on a probed node. */
  probeProblem: string | undefined;
}

export function nodeKernel(ctx: CheckContext, node: KubeNode): NodeKernel {
  const name = node.metadata.name;
  const facts = ctx.factsOf(name);
  const running = facts?.kernel?.trim() || undefined;
  const reported = node.status?.nodeInfo?.kernelVersion?.trim() || undefined;
  const effective = running ?? reported;
  return {
    node: name,
    running,
    reported,
    effective,
    source:
      running !== undefined
        ? 'uname -r'
        : reported !== undefined
          ? 'status.nodeInfo.kernelVersion'
          : undefined,
    version: effective === undefined ? undefined : parseVersion(effective),
    probed: facts !== undefined,
    probeProblem:
      facts !== undefined && running === undefined
        ? (probeProblem(facts, ['uname', 'kernel']) ?? 'the probe returned no kernel')
        : undefined,
  };
}

export function isBelow(version: Version, floor: Pick<Version, 'major' | 'minor' | 'patch'>) {
  return compareVersions(version, floor) < 0;
}

/** Nodes whose kernel parses and is below `floor`, in snapshot order. */
export function kernelsBelow(
  ctx: CheckContext,
  floor: Pick<Version, 'major' | 'minor' | 'patch'>,
): NodeKernel[] {
  return ctx.snapshot.nodes
    .map((node) => nodeKernel(ctx, node))
    .filter((k) => k.version !== undefined && isBelow(k.version, floor));
}

/** Names of the nodes nftables mode refuses (or, before 1.33, breaks), sorted. */
export function nodesBelowNftablesKernel(ctx: CheckContext): string[] {
  return kernelsBelow(ctx, NFTABLES_MIN_KERNEL)
    .map((k) => k.node)
    .sort();
}

/** `5.4` or `4.18, 5.4`: the kernel lines a set of nodes runs. */
export function kernelLines(kernels: readonly NodeKernel[]): string {
  const lines = new Set<string>();
  for (const k of kernels) if (k.version !== undefined) lines.add(majorMinor(k.version));
  return [...lines]
    .sort((a, b) => {
      const va = parseVersion(a);
      const vb = parseVersion(b);
      return va === undefined || vb === undefined ? a.localeCompare(b) : compareVersions(va, vb);
    })
    .join(', ');
}
