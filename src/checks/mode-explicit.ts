// Risk: a blank mode lets a future upgrade pick the dataplane (KEP-5343: nftables becomes the default
// at 1.40, kube-proxy then fails on old kernels). Playbook "The 11 traps" §3; kube-proxy-facts.md §2, §10.
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding } from '../core/findings.js';
import { proxyModes } from '../core/kube-proxy-config.js';
import { nodesBelowNftablesKernel } from './support/kernel.js';
import { configNotRead } from './support/kube-proxy.js';
import { clippedList } from './support/text.js';
import type { Check, CheckContext } from './types.js';

const ID = 'mode-explicit';

function oldKernels(ctx: CheckContext): string {
  const old = nodesBelowNftablesKernel(ctx);
  return old.length === 0
    ? 'No node reports a kernel below 5.13 today.'
    : `${old.length} node(s) report a kernel below 5.13 and would lose Service routing: ${clippedList(old)}.`;
}

/** The valid mode most probed nodes report, to suggest as the correction. */
function reportedMode(ctx: CheckContext): string | undefined {
  const tally = new Map<string, number>();
  for (const f of ctx.snapshot.nodeFacts) {
    const mode = f.proxyMode?.trim();
    if (mode !== undefined && (proxyModes as readonly string[]).includes(mode)) {
      tally.set(mode, (tally.get(mode) ?? 0) + 1);
    }
  }
  return [...tally.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
}

export const modeExplicit: Check = {
  id: ID,
  title: 'kube-proxy mode is set explicitly',
  run(ctx) {
    const mode = ctx.kubeProxy.mode;
    if (mode === undefined) return [configNotRead(ctx, ID, 'whether the mode is explicit')];
    const scope = { kind: 'cluster', name: ctx.snapshot.cluster } as const;
    const source = ctx.kubeProxy.source;
    const ds = ctx.kubeProxy.daemonSet ?? 'kube-proxy';
    if (mode.source === 'default') {
      const runs = mode.effective;
      if (source?.kind === 'configmap') {
        const written = mode.configured === undefined ? 'has no mode' : 'has mode: ""';
        return [
          finding({
            check: ID,
            severity: 'warn',
            scope,
            subjects: [`${KUBE_SYSTEM}/${source.configMap}`],
            title: `kube-proxy mode is not set (${source.configMap}/${source.key} ${written}): ${runs} by default, until an upgrade changes the default`,
            detail: `An empty mode means "the default", iptables today. KEP-5343 (provisional) plans nftables as the default at 1.40: a cluster that never wrote mode: iptables then starts kube-proxy in nftables mode on upgrade, and kube-proxy fails on nodes too old for it. ${oldKernels(ctx)}`,
            remedy: `Write the mode explicitly, one line in ConfigMap ${KUBE_SYSTEM}/${source.configMap} (${source.key}): mode: "${runs}" (what runs now), or "nftables" once the cutover is done. Editing that ConfigMap can restart kube-proxy on every node (it watches its config file), which is harmless when the mode stays the same.`,
            commands: [
              `# ${KUBE_SYSTEM}/${source.configMap} ConfigMap, ${source.key}`,
              `mode: "${runs}"   # or "nftables", never blank`,
              `kubectl -n ${KUBE_SYSTEM} edit configmap ${source.configMap}`,
            ],
          }),
        ];
      }
      return [
        finding({
          check: ID,
          severity: 'warn',
          scope,
          subjects: [`${KUBE_SYSTEM}/${ds}`],
          title: `kube-proxy has no --proxy-mode flag: ${runs} by default, until an upgrade changes the default`,
          detail: `DaemonSet ${KUBE_SYSTEM}/${ds} configures kube-proxy with flags only and sets no --proxy-mode, so kube-proxy runs its default, iptables today. KEP-5343 (provisional) plans nftables as the default at 1.40: kube-proxy then switches on upgrade and fails on nodes too old for it. ${oldKernels(ctx)}`,
          remedy: `Add --proxy-mode=${runs} (what runs now) to the kube-proxy container's command in DaemonSet ${KUBE_SYSTEM}/${ds}.`,
          commands: [
            `kubectl -n ${KUBE_SYSTEM} get ds ${ds} -o jsonpath='{.spec.template.spec.containers[0].command}'`,
            `# DaemonSet ${KUBE_SYSTEM}/${ds}, kube-proxy container command`,
            `- --proxy-mode=${runs}`,
          ],
        }),
      ];
    }
    if (mode.effective === 'unknown') {
      const suggested = reportedMode(ctx) ?? '<ipvs|iptables|nftables>';
      const where =
        mode.source === 'flag'
          ? `--proxy-mode=${mode.configured ?? ''}`
          : `mode: "${mode.configured ?? ''}"`;
      return [
        finding({
          check: ID,
          severity: 'warn',
          scope,
          title:
            mode.configured === 'kernelspace'
              ? 'kube-proxy mode "kernelspace" is Windows-only: kube-proxy on Linux refuses it'
              : `kube-proxy mode ${JSON.stringify(mode.configured ?? '')} is not a mode kube-proxy knows`,
          detail: `${where} is set, but kube-proxy on Linux accepts only ${proxyModes.join(', ')} (lower case) or blank (kernelspace is its Windows mode); its config validation refuses anything else, so the next restart of kube-proxy fails.`,
          remedy: 'Correct the value to the mode kube-proxy runs today (see current-mode).',
          commands: [
            mode.source === 'flag'
              ? `--proxy-mode=${suggested}`
              : `mode: "${suggested}"   # what the nodes report on /proxyMode`,
          ],
        }),
      ];
    }
    return [];
  },
};
