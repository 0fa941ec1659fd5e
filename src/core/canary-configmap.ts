/**
 * The canary's ConfigMap: a copy of the one kube-proxy reads, with its configuration rewritten for
 * nftables. A second ConfigMap, because kube-proxy exits when its --config file changes
 * (cmd/kube-proxy/app/options.go, eventHandler): editing the shared one restarts every node's
 * kube-proxy at once (reference/kube-proxy-facts.md §3).
 */
import type { ConfigMapContent } from './actions.js';
import type { KubeConfigMap } from './kube.js';
import { parseKubeProxyConfiguration, type KubeProxyConfiguration } from './kube-proxy-config.js';
import { nftablesCarryOver, nftablesConfigText, type CarryOver } from './nftables-config.js';

/** Marks every object proxy-migrate creates; the template label keeps the two DaemonSets apart. */
export const CANARY_LABEL = 'proxy-migrate.io/canary';
export const CANARY_LABELS: Readonly<Record<string, string>> = {
  'app.kubernetes.io/managed-by': 'proxy-migrate',
  [CANARY_LABEL]: 'true',
};
/** Where the canary's configuration came from, for people reading the cluster. */
export const COPIED_FROM_ANNOTATION = 'proxy-migrate.io/copied-from';

export type CanaryConfigMap =
  | {
      ok: true;
      content: ConfigMapContent;
      /** The configuration as it runs today. */
      current: KubeProxyConfiguration;
      carryOver: CarryOver;
    }
  | { ok: false; problem: string };

export function canaryConfigMap(
  source: KubeConfigMap,
  key: string,
  options: { tcpBeLiberal: boolean },
): CanaryConfigMap {
  const where = `ConfigMap ${source.metadata.namespace ?? 'kube-system'}/${source.metadata.name}`;
  const data = source.data ?? {};
  const text = data[key];
  if (text === undefined) return { ok: false, problem: `${where} has no key ${key}` };
  const parsed = parseKubeProxyConfiguration(text);
  if (!parsed.ok) return { ok: false, problem: `${where} key ${key}: ${parsed.error}` };
  const carryOver = nftablesCarryOver(parsed.config, { tcpBeLiberal: options.tcpBeLiberal });
  // Every other key (kubeadm's kubeconfig.conf) is copied as it is, in its place.
  const rewritten = Object.fromEntries(
    Object.entries(data).map(([k, v]) => [k, k === key ? nftablesConfigText(carryOver, v) : v]),
  );
  return {
    ok: true,
    current: parsed.config,
    carryOver,
    content: {
      data: rewritten,
      labels: { ...CANARY_LABELS },
      annotations: { [COPIED_FROM_ANNOTATION]: `${where} (${key})` },
    },
  };
}
