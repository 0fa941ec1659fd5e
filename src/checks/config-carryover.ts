// Risk: the canary silently gets nftables defaults: IPVS mode reads ipvs.* and iptables.masquerade*,
// nftables mode only nftables.*. reference/kube-proxy-facts.md §2, §8; 2026 Playbook NodePort snippet.
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding } from '../core/findings.js';
import {
  TCP_LIBERAL_KERNEL,
  nftablesCarryOver,
  shown,
  type CarryOver,
} from '../core/nftables-config.js';
import { kernelsBelow } from './support/kernel.js';
import { carryOverShown, configNotRead, currentConfig } from './support/kube-proxy.js';
import type { Check } from './types.js';

// The rewrite itself lives in core, where the canary plan writes what this check shows.
export { nftablesCarryOver } from '../core/nftables-config.js';

const ID = 'config-carryover';

function table(result: CarryOver): string {
  const lines = ['Carried into the nftables configuration:'];
  for (const c of result.carried) {
    const arrow = c.from === c.to ? c.to : `${c.from} → ${c.to}`;
    lines.push(`  ${arrow}: ${shown(c.value)}${c.note === undefined ? '' : ` (${c.note})`}`);
  }
  if (result.defaulted.length > 0) {
    lines.push(
      // The values come from kube-proxy's v1alpha2 defaults test; its v1alpha1 defaulting code for
      // nftables.* was not found (fact-check #25), so they are given as expected, not asserted.
      `Not set, so kube-proxy's own nftables defaults apply, expected to be: ${result.defaulted.map((d) => `${d.key} (${d.value})`).join(', ')}; check them in the canary's /configz.`,
    );
  }
  if (result.dropped.length > 0) {
    lines.push('Cannot be carried:');
    for (const d of result.dropped) lines.push(`  ${d.key}: ${shown(d.value)} (${d.why})`);
  }
  return lines.join('\n');
}

export const configCarryover: Check = {
  id: ID,
  title: 'Settings the nftables canary carries over',
  run(ctx) {
    const config = currentConfig(ctx);
    if (config === undefined) return [configNotRead(ctx, ID, 'which settings carry over')];
    const scope = { kind: 'cluster', name: ctx.snapshot.cluster } as const;
    // Already on nftables: there is nothing to carry over, so there is nothing to report.
    if (!carryOverShown(ctx)) return [];
    const result = nftablesCarryOver(config, {
      tcpBeLiberal: kernelsBelow(ctx, TCP_LIBERAL_KERNEL).length > 0,
    });
    const source = ctx.kubeProxy.source;
    const from =
      source?.kind === 'configmap'
        ? `ConfigMap ${KUBE_SYSTEM}/${source.configMap} (${source.key})`
        : `the flags of DaemonSet ${KUBE_SYSTEM}/${ctx.kubeProxy.daemonSet ?? 'kube-proxy'}`;
    const nftCarried = result.carried.filter(
      (c) => c.to.startsWith('nftables.') && c.from !== c.to,
    );
    const added = result.carried.filter((c) => c.added === true);
    return [
      finding({
        check: ID,
        severity: 'info',
        scope,
        title: `The nftables canary carries ${result.carried.length - added.length} setting(s) from ${from}${
          nftCarried.length > 0 ? ` (${nftCarried.length} moved into nftables.*)` : ''
        }${added.length > 0 ? ` and adds ${added.map((c) => `${c.to}: ${shown(c.value)}`).join(', ')}` : ''}; ${result.dropped.length} cannot be carried`,
        detail: `IPVS mode reads ipvs.syncPeriod/minSyncPeriod and iptables.masqueradeAll/masqueradeBit; nftables mode reads only nftables.*, so anything not copied silently becomes a default.\n${table(result)}`,
        commands: [result.fragment],
      }),
    ];
  },
};
