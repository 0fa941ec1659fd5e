/**
 * Guards against NodePorts going dark on all but the primary address: unset nodePortAddresses is
 * "all" in IPVS, "primary" in nftables (facts §8, PR #123105; playbook 000 trap 6, playbook 001).
 */
import { finding } from '../core/findings.js';
import { compareVersions, majorMinor, type Version } from '../core/parse/version.js';
import { carryOverShown } from './support/kube-proxy.js';
import {
  KEEP_ALL_SNIPPET,
  NODE_ADDRESSES_COMMAND,
  nodePortAddressesSetting,
} from './support/node-ports.js';
import { nodePortServices, serviceName } from './support/services.js';
import { nameList, plural } from './support/text.js';
import type { Check } from './types.js';

/** What the keyword forms need: `primary` since 1.30; `all`/`localhost` only in newer code. */
export function keywordAdvice(version: Version | undefined): string {
  const primary =
    version !== undefined && compareVersions(version, { major: 1, minor: 30, patch: 0 }) >= 0;
  const running = version === undefined ? 'this kube-proxy' : `kube-proxy ${majorMinor(version)}`;
  return `Use the CIDR form: the keyword "all" (and "localhost") exists only in kube-proxy releases with PR #138427 (KEP-6032, mid-2026), and older ones reject it${primary ? `; "primary" works on ${running} once the callers use the primary address` : `; "primary" needs kube-proxy 1.30 or later`}.`;
}

export const nodeportAddresses: Check = {
  id: 'nodeport-addresses',
  title: 'NodePorts keep answering on the addresses they answer on today',
  run(ctx) {
    const setting = nodePortAddressesSetting(ctx);
    if (setting.kind === 'set') return [];
    const services = nodePortServices(ctx.snapshot.services);
    const scope = { kind: 'cluster' as const, name: ctx.snapshot.cluster };
    const state =
      setting.kind === 'unset'
        ? `nodePortAddresses is unset in ${setting.where}`
        : `nodePortAddresses could not be read (${setting.reason})`;
    const fragment = carryOverShown(ctx) ? ' (the config-carryover fragment sets it)' : '';
    if (services.length === 0) {
      return [
        finding({
          check: nodeportAddresses.id,
          severity: 'info',
          scope,
          title: `${setting.kind === 'unset' ? 'nodePortAddresses unset' : 'nodePortAddresses unknown'}, but no NodePort or LoadBalancer Services: the nftables default cannot hurt today`,
          detail: `${state}. nftables mode would answer NodePorts on the node's primary IPs only, but no Service opens a NodePort now. Set it explicitly in the nftables KubeProxyConfiguration anyway${fragment}, so Services created later keep IPVS behaviour.`,
          commands: ['kubectl get svc -A --field-selector spec.type=NodePort'],
        }),
      ];
    }
    const names = services.map(serviceName).sort();
    const nodePorts = services.filter((s) => s.spec?.type === 'NodePort').length;
    const balancers = services.length - nodePorts;
    const kinds = [
      nodePorts > 0 ? `${nodePorts} NodePort` : '',
      balancers > 0 ? `${balancers} LoadBalancer` : '',
    ]
      .filter((k) => k !== '')
      .join(', ');
    return [
      finding({
        check: nodeportAddresses.id,
        severity: 'warn',
        scope,
        subjects: names.slice(0, 20),
        title: `${setting.kind === 'unset' ? 'nodePortAddresses unset' : 'nodePortAddresses unknown'}: ${plural(services.length, 'Service')} (${kinds}) would answer on the primary node IP only in nftables mode`,
        detail: `${state}. IPVS answers NodePorts on every local address; nftables mode defaults to "primary", the node's first InternalIP (else ExternalIP) per family (PR #123105). Anything reaching these NodePorts on a secondary NIC, an extra ENI address or a VIP gets connection refused after the cut-over while the Service looks healthy from inside the cluster; LoadBalancers that probe a healthCheckNodePort are hit the same way. Services: ${nameList(names)}.`,
        remedy: `Keep today's behaviour through the cut-over with ${KEEP_ALL_SNIPPET} in the nftables KubeProxyConfiguration${fragment}, then tighten it to the addresses callers really use as a separate change. ${keywordAdvice(ctx.kubeProxyVersion?.version)}`,
        commands: [
          'kubectl get svc -A --field-selector spec.type=NodePort',
          'kubectl get svc -A --field-selector spec.type=LoadBalancer',
          NODE_ADDRESSES_COMMAND,
          `# nftables KubeProxyConfiguration\n${KEEP_ALL_SNIPPET}`,
        ],
      }),
    ];
  },
};
