/** The addresses NodePorts answer on: kube-proxy's nodePortAddresses and keeping IPVS' "all". */
import { KEEP_ALL_NODEPORT_ADDRESSES } from '../../core/nftables-config.js';
import { toYaml } from '../../core/safe-yaml.js';
import type { CheckContext } from '../types.js';

/** IPVS' "all local IPs" made explicit for both families (playbook: keep NodePorts answering). */
export { KEEP_ALL_NODEPORT_ADDRESSES };

/** The snippet that keeps IPVS behaviour; CIDRs work on every kube-proxy version. */
export const KEEP_ALL_SNIPPET = toYaml(
  { nodePortAddresses: [...KEEP_ALL_NODEPORT_ADDRESSES] },
  { flow: true },
);

export const NODE_ADDRESSES_COMMAND =
  'kubectl get nodes -o jsonpath=\'{range .items[*]}{.metadata.name}{"\\t"}{range .status.addresses[*]}{.type}={.address}{" "}{end}{"\\n"}{end}\'';

export type NodePortAddressesSetting =
  | { kind: 'unset'; where: string }
  | { kind: 'set'; values: string[]; where: string }
  | { kind: 'unknown'; reason: string };

function where(ctx: CheckContext): string {
  const source = ctx.kubeProxy.source;
  return source?.kind === 'configmap'
    ? `ConfigMap kube-system/${source.configMap} key ${source.key}`
    : 'the kube-proxy command line';
}

function settingOf(values: readonly string[], at: string): NodePortAddressesSetting {
  return values.length === 0
    ? { kind: 'unset', where: at }
    : { kind: 'set', values: [...values], where: at };
}

/** nodePortAddresses as the running kube-proxy reads it: null, missing and empty all mean unset. */
export function nodePortAddressesSetting(ctx: CheckContext): NodePortAddressesSetting {
  const { config, source } = ctx.kubeProxy;
  if (config !== undefined) {
    const raw: unknown = config.nodePortAddresses;
    const list: unknown[] = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
    const values = list.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    return settingOf(
      values.map((v) => v.trim()),
      where(ctx),
    );
  }
  if (source?.kind === 'flags') {
    const values = (ctx.kubeProxyFlags.get('nodeport-addresses') ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    return settingOf(values, where(ctx));
  }
  return {
    kind: 'unknown',
    reason: ctx.kubeProxy.problem ?? 'kube-proxy’s configuration could not be read',
  };
}
