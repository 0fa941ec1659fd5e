// Risk: IPVS-only settings (strictARP, excludeCIDRs, timeouts) vanish at the cutover, whose cleanup
// flushes every IPVS virtual server. reference/kube-proxy-facts.md §2, §6; "IPVS Is Deprecated" step 3.
import { finding } from '../core/findings.js';
import { configNotRead, currentConfig, isUnset } from './support/kube-proxy.js';
import type { Check } from './types.js';

const ID = 'ipvs-only-settings';

/**
 * Each IPVS timeout and its nearest conntrack knob. tcpFinTimeout times IPVS entries after a FIN;
 * kube-proxy has no conntrack FIN_WAIT setting (conntrack.tcpCloseWaitTimeout is CLOSE_WAIT, another
 * state), so the nearest is a host sysctl outside kube-proxy (fact-check #28).
 */
const TIMEOUTS = [
  [
    'tcpTimeout',
    'conntrack.tcpEstablishedTimeout, a kube-proxy setting that applies in every mode',
  ],
  [
    'tcpFinTimeout',
    'the host sysctl net.netfilter.nf_conntrack_tcp_timeout_fin_wait, outside kube-proxy: kube-proxy has no conntrack FIN_WAIT setting, and conntrack.tcpCloseWaitTimeout times CLOSE_WAIT, a different state',
  ],
  ['udpTimeout', 'conntrack.udpTimeout, a kube-proxy setting that applies in every mode'],
] as const;

export const ipvsOnlySettings: Check = {
  id: ID,
  title: 'No IPVS-only settings that nftables cannot keep',
  run(ctx) {
    const mode = ctx.kubeProxy.mode;
    const config = currentConfig(ctx);
    if (mode === undefined || config === undefined) {
      return [configNotRead(ctx, ID, 'IPVS-only settings')];
    }
    if (mode.effective !== 'ipvs') return [];
    const ipvs = config.ipvs ?? {};
    const set: string[] = [];
    const notes: string[] = [];
    const commands: string[] = [];
    let decision = false;

    if (ipvs.strictARP === true) {
      set.push('strictARP=true');
      notes.push(
        'strictARP: kube-proxy set net.ipv4.conf.all.arp_ignore=1 and arp_announce=2 so nodes do not answer ARP for the Service IPs on kube-ipvs0; MetalLB in L2 mode requires it under IPVS. nftables mode has no kube-ipvs0 and needs no strictARP, MetalLB L2 keeps working, and the cleanup does not revert the two sysctls: they stay until the next reboot, when the node quietly returns to the kernel defaults.',
      );
      commands.push(
        'sysctl net.ipv4.conf.all.arp_ignore net.ipv4.conf.all.arp_announce   # on the node',
      );
    }
    const exclude = ipvs.excludeCIDRs;
    if (!isUnset(exclude)) {
      decision = true;
      set.push(`excludeCIDRs=${JSON.stringify(exclude)}`);
      notes.push(
        `excludeCIDRs: ${JSON.stringify(exclude)} keeps kube-proxy away from IPVS virtual servers someone else owns (keepalived, an LVS setup). When kube-proxy starts in nftables mode its IPVS cleanup flushes every virtual server on the node and does not read excludeCIDRs, so those go too (unless \`modprobe -va ip_vs\` fails inside the kube-proxy container, in which case, since PR #131243, the whole IPVS cleanup is skipped and kube-proxy's own virtual servers stay behind as well).`,
      );
      commands.push('ipvsadm -Sn > ipvs-backup.rules   # on each node, before its cutover');
    }
    for (const [key, nearest] of TIMEOUTS) {
      const value = ipvs[key];
      if (isUnset(value)) continue;
      decision = true;
      const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
      set.push(`${key}=${text}`);
      notes.push(
        `${key}: ${text} is an IPVS connection-table timeout with no nftables setting; the nearest knob is ${nearest}.`,
      );
    }
    if (set.length === 0) return [];
    notes.push(
      'None of these has an equivalent in nftables mode; the cleanup also leaves other sysctls IPVS mode set (net.ipv4.vs.*) as they are.',
    );
    const base = {
      check: ID,
      scope: { kind: 'cluster', name: ctx.snapshot.cluster } as const,
      title: `${set.length} IPVS-only setting(s) have no nftables equivalent: ${set.join(', ')}`,
      detail: notes.join(' '),
      commands,
    };
    if (!decision) return [finding({ ...base, severity: 'info' })];
    return [
      finding({
        ...base,
        severity: 'warn',
        remedy:
          'Decide what replaces each setting before cutting over: for excludeCIDRs, find the owner of the other virtual servers and plan to restore them (restart it, or restore only its entries from ipvs-backup.rules) right after each node moves; for timeouts, set the conntrack.* value you need in the nftables configuration (for tcpFinTimeout, the host sysctl net.netfilter.nf_conntrack_tcp_timeout_fin_wait).',
      }),
    ];
  },
};
