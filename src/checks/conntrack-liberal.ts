/**
 * Guards against "connection reset by peer" on long-lived connections: kernels before 6.1 can mark
 * packets INVALID and nftables mode installs no workaround (facts §9; playbook 000 trap 8, 001).
 */
import { finding, type Finding } from '../core/findings.js';
import { sumCounter } from '../core/parse/conntrack.js';
import { toYaml } from '../core/safe-yaml.js';
import { countNodes, entriesOf, perPool, type PoolGroup } from './group.js';
import {
  TCP_LIBERAL_KERNEL,
  kernelLines,
  kernelsBelow,
  type NodeKernel,
} from './support/kernel.js';
import { carryOverShown } from './support/kube-proxy.js';
import { evidenceList } from './support/text.js';
import type { Check, CheckContext } from './types.js';

export const TCP_BE_LIBERAL_SNIPPET = toYaml({ conntrack: { tcpBeLiberal: true } });

type Liberal = { set: true } | { set: false; why: string };

/** Whether kube-proxy's current configuration sets nf_conntrack_tcp_be_liberal. */
export function tcpBeLiberal(ctx: CheckContext): Liberal {
  const { config, source, problem } = ctx.kubeProxy;
  if (config !== undefined) {
    return config.conntrack?.['tcpBeLiberal'] === true
      ? { set: true }
      : { set: false, why: 'conntrack.tcpBeLiberal is not true in the kube-proxy configuration' };
  }
  if (source?.kind === 'flags') {
    return ctx.kubeProxyFlags.get('conntrack-tcp-be-liberal') === 'true'
      ? { set: true }
      : { set: false, why: 'kube-proxy runs without --conntrack-tcp-be-liberal' };
  }
  return {
    set: false,
    why: `kube-proxy's configuration could not be read (${problem ?? 'unknown source'}), so tcpBeLiberal is assumed unset`,
  };
}

function invalidEvidence(ctx: CheckContext, k: NodeKernel): string {
  const counters = ctx.factsOf(k.node)?.conntrack?.invalidPerCpu;
  if (counters === undefined || counters.length === 0) {
    return `${k.node} (${k.effective ?? ''}): invalid counters not read`;
  }
  return `${k.node} (${k.effective ?? ''}): invalid=${sumCounter(counters)} (per CPU ${counters.join('/')})`;
}

export const conntrackLiberal: Check = {
  id: 'conntrack-liberal',
  title: 'Kernels before 6.1 run with conntrack.tcpBeLiberal',
  run(ctx) {
    const liberal = tcpBeLiberal(ctx);
    if (liberal.set) return [];
    const kernels = new Map(kernelsBelow(ctx, TCP_LIBERAL_KERNEL).map((k) => [k.node, k]));
    const fragment = carryOverShown(ctx)
      ? '; the config-carryover fragment already includes it while nodes run kernels before 6.1'
      : '';
    const build = (group: PoolGroup): Finding => {
      const members = entriesOf(group, kernels);
      const counted = members.flatMap((k) => {
        const counters = ctx.factsOf(k.node)?.conntrack?.invalidPerCpu ?? [];
        return counters.length === 0 ? [] : [sumCounter(counters)];
      });
      const total = sumCounter(counted);
      const counterTitle =
        counted.length === 0 ? '' : `; invalid=${total} on ${counted.length} probed`;
      return finding({
        check: conntrackLiberal.id,
        severity: 'warn',
        scope: { kind: 'pool', name: group.pool },
        subjects: group.nodes,
        title: `${countNodes(group)} on kernel ${kernelLines(members)} (< 6.1) without conntrack.tcpBeLiberal${counterTitle}`,
        detail: `Kernels before 6.1 carry a conntrack bug that can reset long-lived TCP connections to Service IPs; iptables mode works around it with an INVALID drop rule (since PR #120412 only while nf_conntrack_tcp_be_liberal is 0), nftables mode installs none (PR #122663). IPVS had no such rule either, so the risk is not new, but the cut-over is the moment to close it: ${liberal.why}. Rising invalid counters on these nodes are the evidence: ${evidenceList(members, (k) => invalidEvidence(ctx, k))}.`,
        remedy: `Set conntrack.tcpBeLiberal: true in the nftables KubeProxyConfiguration (snippet below${fragment}; kube-proxy then sets nf_conntrack_tcp_be_liberal=1, as kind does for nftables) and watch the per-CPU invalid counters on the first nodes you move, or move these nodes to kernel 6.1 or later.`,
        commands: ["conntrack -S | tr ' ' '\\n' | grep invalid", TCP_BE_LIBERAL_SNIPPET],
      });
    };
    return perPool(ctx, [...kernels.keys()], build);
  },
};
