/**
 * Guards against a node that loses Service routing: kube-proxy in nftables mode deletes the IPVS
 * rules BEFORE it checks for kernel 5.13, and whether it checks at all depends on its version and
 * KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK (facts §1, §12; shared/reference/preflight-factcheck.md
 * #5-8; playbook 000 trap 5, playbook 001 pre-flight 1). Below 5.13 always blocks the node.
 */
import type { Finding } from '../core/findings.js';
import { compareVersions, parseVersion } from '../core/parse/version.js';
import {
  countNodes,
  entriesOf,
  perPool,
  poolFinding,
  poolParts,
  probesSkipped,
  subGroup,
  type PoolGroup,
} from './group.js';
import {
  KERNEL_COLUMNS_COMMAND,
  NFTABLES_MIN_KERNEL,
  isBelow,
  kernelLines,
  nodeKernel,
  type NodeKernel,
} from './support/kernel.js';
import { IPVS_CLEANUP_CAVEAT, kernelGuard } from './support/kube-proxy.js';
import { evidenceList } from './support/text.js';
import type { Check, CheckContext } from './types.js';

type Category = 'below' | 'mismatch' | 'unparseable' | 'unreadable' | 'unprobed';

function categorise(k: NodeKernel, probing: boolean): Category | undefined {
  if (k.effective === undefined) return 'unreadable';
  if (k.version === undefined) return 'unparseable';
  if (isBelow(k.version, NFTABLES_MIN_KERNEL)) return 'below';
  if (k.running !== undefined && k.reported !== undefined && k.running !== k.reported)
    return 'mismatch';
  if (probing && k.running === undefined) return 'unprobed';
  return undefined;
}

function evidence(k: NodeKernel): string {
  const reported = parseVersion(k.reported ?? '');
  const older =
    k.version !== undefined && reported !== undefined && compareVersions(k.version, reported) < 0;
  const mismatch =
    k.running !== undefined && k.reported !== undefined && k.running !== k.reported
      ? ` (the Node object says ${k.reported}${older ? ': rebooted into an older kernel?' : ''})`
      : '';
  return `${k.node}: ${k.effective ?? 'unknown'} from ${k.source ?? 'nowhere'}${mismatch}`;
}

/**
 * Why a kernel below 5.13 is dangerous, for this cluster's kube-proxy: one paragraph that says
 * either that kube-proxy refuses the kernel or that it does not, never both (fact-check #6).
 */
export function belowFloorDetail(ctx: CheckContext): { detail: string; variable: string } {
  const guard = kernelGuard(ctx);
  const outcome =
    guard.refuses === true
      ? 'By then it has deleted the old rules, so the node loses the IPVS Service routing it had.'
      : guard.refuses === false
        ? 'So on these nodes it deletes the old rules and then programs nftables on a kernel that mode does not support.'
        : 'Either way it deletes the old rules first.';
  // "before it checks the kernel" only where kube-proxy checks it: on 1.31-1.32 without the
  // variable there is no check to come after (fact-check #6).
  const cleanup =
    guard.refuses === true
      ? 'kube-proxy removes the IPVS rules and kube-ipvs0 before it checks the kernel (platformCleanup runs first in Options.Run, cmd/kube-proxy/app/options.go)'
      : guard.refuses === false
        ? 'kube-proxy removes the IPVS rules and kube-ipvs0 as soon as it starts in nftables mode (platformCleanup runs first in Options.Run, cmd/kube-proxy/app/options.go)'
        : 'kube-proxy removes the IPVS rules and kube-ipvs0 first, before any kernel check (platformCleanup runs first in Options.Run, cmd/kube-proxy/app/options.go)';
  return {
    detail: `nftables mode needs kernel 5.13 or later, and ${cleanup}. ${guard.says} ${outcome} ${IPVS_CLEANUP_CAVEAT}`,
    variable: guard.variable,
  };
}

function kernelFinding(
  ctx: CheckContext,
  group: PoolGroup,
  byNode: Map<string, { kernel: NodeKernel; category: Category }>,
): Finding {
  const entries = entriesOf(group, byNode);
  const of = (category: Category) =>
    entries.filter((e) => e.category === category).map((e) => e.kernel);
  const below = of('below');
  const mismatch = of('mismatch');
  const unparseable = of('unparseable');
  const unreadable = of('unreadable');
  const unprobed = of('unprobed');

  const parts = poolParts();
  const { titles, details, remedies } = parts;
  if (below.length > 0) {
    titles.push(`${countNodes(subGroup(group, below))} on kernel ${kernelLines(below)} (< 5.13)`);
    const why = belowFloorDetail(ctx);
    details.push(`${why.detail} Evidence: ${evidenceList(below, evidence)}.`);
    remedies.push(
      `Upgrade the kernel on these nodes to 5.13 or later first (a newer node image: Ubuntu 22.04 ships 5.15, RHEL 9 5.14, AL2023 6.1) and keep them on IPVS until then. ${why.variable}`,
    );
  }
  if (mismatch.length > 0) {
    titles.push(
      `${countNodes(subGroup(group, mismatch))} run another kernel than their Node object reports`,
    );
    details.push(
      `status.nodeInfo.kernelVersion is what kubelet saw when it started, so a node rebooted into a rollback GRUB entry can report a newer kernel than it runs (the playbook's blind spot). These run a kernel above 5.13, but not the one the Node object shows: ${evidenceList(mismatch, (k) => `${k.node}: uname -r ${k.running ?? ''}, Node object ${k.reported ?? ''}`)}.`,
    );
    remedies.push(
      'Check `uname -r` on those hosts, boot the intended kernel and restart kubelet so the Node object tells the truth before planning around it.',
    );
  }
  if (unparseable.length > 0) {
    titles.push(`${countNodes(subGroup(group, unparseable))} with an unparseable kernel string`);
    details.push(
      `No major.minor version could be read from: ${evidenceList(unparseable, (k) => `${k.node}: "${k.effective ?? ''}" (${k.source ?? ''})`)}.`,
    );
  }
  if (unreadable.length > 0) {
    titles.push(`could not read the kernel on ${countNodes(subGroup(group, unreadable))}`);
    details.push(
      `Neither uname -r nor status.nodeInfo.kernelVersion is available for: ${evidenceList(unreadable, (k) => `${k.node}${k.probeProblem === undefined ? '' : ` (${k.probeProblem})`}`)}.`,
    );
  }
  if (unprobed.length > 0) {
    titles.push(
      `uname -r not read on ${countNodes(subGroup(group, unprobed))}, used the Node object`,
    );
    details.push(
      `The running kernel could not be read, so the Node object's kernelVersion was used; a node rebooted into an older kernel would not show here: ${evidenceList(unprobed, (k) => `${k.node}: ${k.reported ?? ''} (${k.probed ? (k.probeProblem ?? 'probe failed') : 'not probed'})`)}.`,
    );
  }
  if (unparseable.length + unreadable.length + unprobed.length > 0) {
    remedies.push(
      'Read the kernel by hand with `uname -r` on each of these hosts and rerun pre-flight.',
    );
  }

  const severity =
    below.length > 0
      ? 'block'
      : mismatch.length + unparseable.length + unreadable.length > 0
        ? 'warn'
        : 'info';
  const spot = [...mismatch, ...unparseable, ...unreadable, ...unprobed][0];
  return poolFinding(kernelVersion.id, severity, group, parts, [
    KERNEL_COLUMNS_COMMAND,
    ...(spot === undefined
      ? []
      : [`kubectl debug node/${spot.node} -it --image=busybox -- uname -r`]),
  ]);
}

export const kernelVersion: Check = {
  id: 'kernel-version',
  title: 'Every node runs kernel 5.13 or later',
  run(ctx) {
    const probing = ctx.snapshot.nodeFacts.length > 0;
    const byNode = new Map<string, { kernel: NodeKernel; category: Category }>();
    for (const node of ctx.snapshot.nodes) {
      const kernel = nodeKernel(ctx, node);
      const category = categorise(kernel, probing);
      if (category !== undefined) byNode.set(node.metadata.name, { kernel, category });
    }
    const findings = perPool(ctx, [...byNode.keys()], (group) => kernelFinding(ctx, group, byNode));
    const skipped = probesSkipped(ctx, kernelVersion.id, {
      what: 'Kernel read from the Node objects only',
      detail:
        'status.nodeInfo.kernelVersion is what kubelet saw when it started; a node rebooted into an older kernel still reports the newer one. Spot-check with uname -r on the hosts before cutting them over.',
      commands: [KERNEL_COLUMNS_COMMAND],
    });
    return skipped === undefined ? findings : [...findings, skipped];
  },
};
