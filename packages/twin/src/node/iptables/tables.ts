// The node's iptables (iptables-nft) state per family: the chains kubelet always keeps
// (pkg/kubelet/kubelet_network_linux.go syncIPTablesRules and its KUBE-KUBELET-CANARY monitor) plus
// IPVS mode's (`ipvs-rules.ts`). Rules are stored as iptables-save prints them after `-A CHAIN`.
// iptables mode's own KUBE-SVC-/KUBE-SEP- chains are not rendered (see docs/twin.md).

import type { Dataplane } from '../dataplane/dataplane.js';
import type { IPFamily } from '../host/ip.js';
import { TablesBuilder, type IptTable } from './builder.js';
import { writeIpvsRules } from './ipvs-rules.js';

export type { IptTable, TableName } from './builder.js';

/** kubelet's chains: the hint and canaries for both families, KUBE-FIREWALL for IPv4 only. */
function writeKubelet(b: TablesBuilder, family: IPFamily): void {
  b.chain('mangle', 'KUBE-IPTABLES-HINT');
  for (const t of ['mangle', 'nat', 'filter'] as const) b.chain(t, 'KUBE-KUBELET-CANARY');
  if (family === 'IPv6') return;
  b.append(
    'filter',
    'KUBE-FIREWALL',
    '! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
  );
  b.prepend('filter', 'OUTPUT', '-j KUBE-FIREWALL');
  b.prepend('filter', 'INPUT', '-j KUBE-FIREWALL');
}

/** What `iptables-save` (IPv4) or `ip6tables-save` (IPv6) sees on the node now. */
export function iptablesTables(dp: Dataplane, family: IPFamily): IptTable[] {
  const b = new TablesBuilder();
  writeKubelet(b, family);
  if (dp.ipvsIptables) writeIpvsRules(b, dp.ipvsIptables, family);
  return b.build();
}
