/** kube-proxy's configuration as the checks read it, and what they say when it cannot be read. */
import { KUBE_SYSTEM } from '../../core/cluster-overview.js';
import { finding, type Finding } from '../../core/findings.js';
import type { KubeProxyConfiguration } from '../../core/kube-proxy-config.js';
import type { ClusterSnapshot } from '../../core/snapshot.js';
import type { CheckContext } from '../types.js';
import { configFromFlags } from './kube-proxy-flags.js';

/** The check whose finding explains in full why kube-proxy's configuration is missing. */
const PRESENT_CHECK = 'kube-proxy-present';

/** Something other than kube-proxy programs Services; `undefined` when nothing says so. */
export interface ProxyReplacement {
  /** Human name, e.g. "Cilium kube-proxy replacement". */
  name: string;
  /** What gave it away, with the value read. */
  evidence: string;
}

/**
 * Cilium (`kube-proxy-replacement` "true" or the pre-1.14 "strict") or GKE Dataplane V2 (`anetd`).
 * Facts §13: `strict` is deprecated but still means "replace kube-proxy".
 */
export function proxyReplacement(
  snapshot: Pick<ClusterSnapshot, 'kubeSystemConfigMaps' | 'kubeSystemDaemonSets'>,
): ProxyReplacement | undefined {
  const cilium = snapshot.kubeSystemConfigMaps.find((cm) => cm.metadata.name === 'cilium-config');
  const raw = cilium?.data?.['kube-proxy-replacement'];
  if (raw !== undefined && ['true', 'strict'].includes(raw.trim().toLowerCase())) {
    return {
      name: 'Cilium kube-proxy replacement',
      evidence: `ConfigMap ${KUBE_SYSTEM}/cilium-config has kube-proxy-replacement: "${raw}"`,
    };
  }
  if (snapshot.kubeSystemDaemonSets.some((ds) => ds.metadata.name === 'anetd')) {
    return {
      name: 'GKE Dataplane V2',
      evidence: `DaemonSet ${KUBE_SYSTEM}/anetd (Cilium-based) is deployed`,
    };
  }
  return undefined;
}

/**
 * What a check that needs kube-proxy's configuration says when there is none to read, so the
 * report never shows a pass for something nobody could check.
 */
export function configNotRead(ctx: CheckContext, check: string, what: string): Finding {
  const replacement =
    ctx.kubeProxy.daemonSet === undefined ? proxyReplacement(ctx.snapshot) : undefined;
  if (replacement !== undefined) {
    return finding({
      check,
      severity: 'info',
      scope: { kind: 'cluster', name: ctx.snapshot.cluster },
      title: `Not applicable: ${replacement.name} replaces kube-proxy`,
      detail: `${replacement.evidence}, so Service traffic does not go through kube-proxy and there is nothing to check.`,
    });
  }
  return finding({
    check,
    severity: 'info',
    scope: { kind: 'cluster', name: ctx.snapshot.cluster },
    title: `Could not check ${what}: kube-proxy's configuration was not read`,
    detail: `${ctx.kubeProxy.problem ?? 'kube-proxy’s configuration is not available'}. See ${PRESENT_CHECK}.`,
  });
}

/**
 * The configuration kube-proxy runs with: the parsed config file, or the flags turned into one
 * when the DaemonSet has no --config. Undefined when neither could be read.
 */
export function currentConfig(ctx: CheckContext): KubeProxyConfiguration | undefined {
  if (ctx.kubeProxy.config !== undefined) return ctx.kubeProxy.config;
  if (ctx.kubeProxy.source?.kind !== 'flags') return undefined;
  return configFromFlags(ctx.kubeProxyFlags);
}

/**
 * Whether config-carryover shows an nftables configuration fragment: kube-proxy's configuration
 * was read and it does not run nftables yet. Remedies that point at that fragment ask this first.
 */
export function carryOverShown(ctx: CheckContext): boolean {
  return currentConfig(ctx) !== undefined && ctx.kubeProxy.mode?.effective !== 'nftables';
}

/** Values kube-proxy treats as "not set": null, "", [], {}, and zero durations such as `0s`. */
export { isUnset } from '../../core/nftables-config.js';
