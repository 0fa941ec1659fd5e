/**
 * Keeps NodeLocal DNSCache out of the migration: its IPVS layout keeps working under nftables and
 * changing it is a separate kubelet migration (facts §13; playbook 000 trap 11).
 */
import { finding } from '../core/findings.js';
import type { KubeDaemonSet } from '../core/kube.js';
import { parseFlags } from '../core/kube-proxy-config.js';
import type { Check } from './types.js';

export function findNodeLocalDns(daemonSets: readonly KubeDaemonSet[]): KubeDaemonSet | undefined {
  return (
    daemonSets.find((ds) => ds.metadata.name === 'node-local-dns') ??
    daemonSets.find((ds) => ds.metadata.labels?.['k8s-app'] === 'node-local-dns')
  );
}

/** The addresses in `-localip`, from the node-cache container (else the first one). */
export function localIps(ds: KubeDaemonSet): string[] | undefined {
  const containers = ds.spec?.template?.spec?.containers ?? [];
  const container = containers.find((c) => c.name === 'node-cache') ?? containers[0];
  if (container === undefined) return undefined;
  const value = parseFlags([...(container.command ?? []), ...(container.args ?? [])]).get(
    'localip',
  );
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((ip) => ip.trim())
    .filter((ip) => ip !== '');
}

export const nodelocaldns: Check = {
  id: 'nodelocaldns',
  title: 'NodeLocal DNSCache needs no change',
  run(ctx) {
    const ds = findNodeLocalDns(ctx.snapshot.kubeSystemDaemonSets);
    if (ds === undefined) return [];
    const name = `kube-system/${ds.metadata.name}`;
    const ips = localIps(ds);
    const base = {
      check: nodelocaldns.id,
      severity: 'info' as const,
      scope: { kind: 'cluster' as const, name: ctx.snapshot.cluster },
      subjects: [name],
      commands: [
        `kubectl -n kube-system get ds ${ds.metadata.name} -o jsonpath='{.spec.template.spec.containers[0].args}'`,
      ],
    };
    if (ips === undefined || ips.length === 0 || ips.some((ip) => ip.includes('__PILLAR__'))) {
      return [
        finding({
          ...base,
          title: `NodeLocal DNSCache found, but its -localip could not be read`,
          detail: `DaemonSet ${name} has no usable -localip argument (${ips === undefined ? 'missing' : `"${ips.join(',')}"`}). Whichever layout it uses keeps working after the switch; leave it as it is.`,
        }),
      ];
    }
    if (ips.length === 1) {
      return [
        finding({
          ...base,
          title: `NodeLocal DNSCache in the IPVS layout (-localip ${ips[0] ?? ''} only): leave it as it is`,
          detail: `Under IPVS node-local-dns listens only on the link-local address and kubelet's --cluster-dns points there, because kube-ipvs0 owns the kube-dns ClusterIP. Pods keep querying the link-local address after the node moves to nftables, so it keeps working. Moving to the two-address layout means changing --cluster-dns on every kubelet and restarting them: a separate, larger migration for its own change ticket, after the dataplane is stable.`,
        }),
      ];
    }
    return [
      finding({
        ...base,
        title: `NodeLocal DNSCache listens on ${ips.join(' and ')}: the iptables-mode layout, expected to work in nftables mode`,
        detail: `DaemonSet ${name} binds the link-local address and the kube-dns ClusterIP, the layout the NodeLocal DNSCache docs give for iptables mode (they describe iptables and IPVS only), expected to work the same in nftables mode, since kube-proxy adds no interface there either; nothing to change, but confirm DNS from a Pod on the canary node.`,
      }),
    ];
  },
};
